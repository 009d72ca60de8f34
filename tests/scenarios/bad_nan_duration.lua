-- expect-exit: 2
-- expect-stderr: bad_nan_duration\.lua:5:
-- 0/0 is not a duration.
scenario{ name = "bad_nan_duration" }
task{ name = "t", run = function() sleep(0/0) end }
