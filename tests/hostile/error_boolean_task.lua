-- expect-exit: 2
-- expect-stderr: error_boolean_task\.lua:5: error raised with a boolean value instead of a message
-- error(false) in a task.
scenario{ name = "error_boolean_task" }
task{ name = "t", run = function() error(false) end }
