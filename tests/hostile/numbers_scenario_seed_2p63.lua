-- expect-exit: 2
-- expect-stderr: numbers_scenario_seed_2p63\.lua:4: scenario\{\}: 'seed' must be an integer, got 9\.2233720368548e\+18
-- A seed of 2^63 (a float: no integer holds it).
scenario{ name = "numbers_scenario_seed_2p63", seed = 2^63 }
