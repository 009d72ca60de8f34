/*
 * same_order.pml - N processes take two locks in the same order: no
 * deadlock.  The model of tests/bench/same_order.lua for SPIN (make bench,
 * figure 10): spin -DN=5 -a same_order.pml && cc -O2 -o pan pan.c &&
 * ./pan -w16.  A lock is a bit taken by an atomic test-and-set that blocks
 * while the bit is set, as a sleeping mutex blocks its caller.
 */
#ifndef N
#define N 2
#endif
bit a, b;
active [N] proctype p()
{
	atomic { a == 0 -> a = 1 };
	atomic { b == 0 -> b = 1 };
	b = 0;
	a = 0
}
