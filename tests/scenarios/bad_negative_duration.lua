-- expect-exit: 2
-- expect-stderr: bad_negative_duration\.lua:5:
-- A negative duration.
scenario{ name = "bad_negative_duration" }
task{ name = "t", run = function() compute(-5) end }
