-- expect-exit: 2
-- expect-stderr: numbers_task_start_maxinteger\.lua:5: task\{\}: 'start' is too large \(9223372036854775807 ns; the most is 4611686018427387904\)
-- A start time past the largest duration.
scenario{ name = "numbers_task_start_maxinteger" }
task{ name = "t", start = math.maxinteger, run = function() end }
