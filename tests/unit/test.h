/*
 * test.h - what every unit test includes: the headers cmocka needs before
 * its own, in the order it documents.
 */
#ifndef KM_TESTS_UNIT_TEST_H
#define KM_TESTS_UNIT_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#endif /* KM_TESTS_UNIT_TEST_H */
