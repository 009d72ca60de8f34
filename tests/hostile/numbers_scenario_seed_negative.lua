-- expect-exit: 2
-- expect-stderr: numbers_scenario_seed_negative\.lua:4: scenario\{\}: 'seed' must be between 0 and 9223372036854775807, got -1
-- A negative seed.
scenario{ name = "numbers_scenario_seed_negative", seed = -1 }
