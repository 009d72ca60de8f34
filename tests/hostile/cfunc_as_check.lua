-- expect-exit: 2
-- expect-stderr: cfunc_as_check\.lua:6: .*compute\(\) called outside a task
-- A C function as a check has no Lua frame of its own: its error must
-- still name the line of the check() that declared it.
scenario{ name = "cfunc_as_check" }
check(compute)
