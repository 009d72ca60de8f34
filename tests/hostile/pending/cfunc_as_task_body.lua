-- expect-exit: 2
-- expect-stderr: cfunc_as_task_body\.lua:7: compute\(\): the duration must be a duration in nanoseconds, got no value
-- NO LINE (engine bug): a C function as a task's body (run = compute) has
-- no Lua frame, so the message names the file only.  The line of the
-- task{} declaration would do.
scenario{ name = "cfunc_as_task_body" }
task{ name = "t", run = compute }
