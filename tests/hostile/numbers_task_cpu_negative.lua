-- expect-exit: 2
-- expect-stderr: numbers_task_cpu_negative\.lua:5: task\{\}: 'cpu' must be between 0 and 1023, got -1
-- A task pinned to CPU -1.
scenario{ name = "numbers_task_cpu_negative" }
task{ name = "t", cpu = -1, run = function() end }
