-- expect-exit: 2
-- expect-stderr: numbers_scenario_cpus_nan\.lua:4: scenario\{\}: 'cpus' must be an integer, got -?nan
-- A CPU count of NaN.
scenario{ name = "numbers_scenario_cpus_nan", cpus = 0/0 }
