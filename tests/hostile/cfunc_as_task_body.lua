-- expect-exit: 2
-- expect-stderr: cfunc_as_task_body\.lua:6: compute\(\): the duration must be a duration in nanoseconds, got no value
-- A C function as a task's body (run = compute) has no Lua frame: its
-- error must name the line of the task{} declaration.
scenario{ name = "cfunc_as_task_body" }
task{ name = "t", run = compute }
