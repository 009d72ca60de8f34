-- expect-exit: 2
-- expect-stderr: bad_type\.lua:5: bad argument #1 to 'down' \(lock expected, got number\)
-- A number where a lock is expected.
scenario{ name = "bad_type" }
task{ name = "t", run = function() down(42) end }
