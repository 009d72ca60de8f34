-- expect-exit: 2
-- expect-stderr: numbers_scenario_cpus_100000\.lua:4: scenario\{\}: 'cpus' must be between 1 and 1024, got 100000
-- A hundred thousand CPUs (the most is 1024).
scenario{ name = "numbers_scenario_cpus_100000", cpus = 100000 }
