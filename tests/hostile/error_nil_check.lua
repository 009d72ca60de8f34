-- expect-exit: 2
-- expect-stderr: error_nil_check\.lua:5: error raised with a nil value instead of a message
-- error(nil) in a check(): the message names the file and line.
scenario{ name = "error_nil_check" }
check(function(report) error(nil) end)
