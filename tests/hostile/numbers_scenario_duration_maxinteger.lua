-- expect-exit: 2
-- expect-stderr: numbers_scenario_duration_maxinteger\.lua:4: scenario\{\}: 'duration' is too large
-- A duration past 2^62 ns (146 years).
scenario{ name = "numbers_scenario_duration_maxinteger", duration = math.maxinteger }
