-- expect-exit: 2
-- expect-stderr: numbers_task_start_2p63\.lua:5: task\{\}: 'start' must be a whole number of nanoseconds, got 9\.2233720368548e\+18
-- A start time of 2^63 ns.
scenario{ name = "numbers_task_start_2p63" }
task{ name = "t", start = 2^63, run = function() end }
