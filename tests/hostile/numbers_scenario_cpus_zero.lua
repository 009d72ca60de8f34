-- expect-exit: 2
-- expect-stderr: numbers_scenario_cpus_zero\.lua:4: scenario\{\}: 'cpus' must be between 1 and 1024, got 0
-- Zero CPUs.
scenario{ name = "numbers_scenario_cpus_zero", cpus = 0 }
