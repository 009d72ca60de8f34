-- expect-exit: 2
-- expect-stderr: error_table_task\.lua:7: error raised with a table value instead of a message
-- A table as the error object, in a task: the host describes it and finds
-- the position on the task's (still suspended) stack.
scenario{ name = "error_table_task" }
task{ name = "t", run = function()
  compute(us(1)); error({ code = 1 })
end }
