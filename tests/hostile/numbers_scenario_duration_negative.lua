-- expect-exit: 2
-- expect-stderr: numbers_scenario_duration_negative\.lua:4: scenario\{\}: 'duration' must not be negative, got -1
-- A negative duration.
scenario{ name = "numbers_scenario_duration_negative", duration = -1 }
