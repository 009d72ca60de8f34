-- expect-exit: 2
-- expect-stderr: error_nil_check\.lua:5: error raised with a nil value instead of a message
-- FIXED (was pending): -- NO POSITION (engine bug): error(nil) in a check() names neither file nor line.
scenario{ name = "error_nil_check" }
check(function(report) error(nil) end)
