-- expect-exit: 2
-- expect-stderr: numbers_scenario_duration_huge\.lua:4: scenario\{\}: 'duration' must be a whole number of nanoseconds, got inf
-- An infinite duration.
scenario{ name = "numbers_scenario_duration_huge", duration = math.huge }
