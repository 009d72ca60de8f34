-- expect-exit: 2
-- expect-stderr: error_nil_task\.lua:5: error raised with a nil value instead of a message
-- error(nil) in a task.
scenario{ name = "error_nil_task" }
task{ name = "t", run = function() error(nil) end }
