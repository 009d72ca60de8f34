-- expect-exit: 2
-- expect-stderr: cfunc_as_check\.lua:5: .*compute\(\) called outside a task
-- NO FILE (engine bug): check(compute) -- a C function as a check.
scenario{ name = "cfunc_as_check" }
check(compute)
