-- expect-exit: 2
-- expect-stderr: bad_op_toplevel\.lua:6: .*outside a task
-- An operation at the top level, before the run.
scenario{ name = "bad_op_toplevel" }
local l = lock{ name = "l" }
down(l)
