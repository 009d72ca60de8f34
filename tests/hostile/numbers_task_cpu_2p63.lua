-- expect-exit: 2
-- expect-stderr: numbers_task_cpu_2p63\.lua:5: task\{\}: 'cpu' must be an integer, got 9\.2233720368548e\+18
-- A task pinned to CPU 2^63.
scenario{ name = "numbers_task_cpu_2p63" }
task{ name = "t", cpu = 2^63, run = function() end }
