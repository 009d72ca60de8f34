-- expect-exit: 2
-- expect-stderr: message_error_newline\.lua:7: first
-- FIXED (was pending): -- TWO LINES (engine bug): error() with a newline in its message is
-- printed on two lines; "one line naming the file and line" is broken by
-- any scenario that wants to.
scenario{ name = "message_error_newline" }
task{ name = "t", run = function() error("first\nsecond") end }
