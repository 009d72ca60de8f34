-- expect-exit: 2
-- expect-stderr: message_error_newline\.lua:6: first
-- error() with a newline in its message: the message stays one line
-- naming the file and line, whatever the scenario puts in it.
scenario{ name = "message_error_newline" }
task{ name = "t", run = function() error("first\nsecond") end }
