-- expect-exit: 2
-- expect-stderr: ncpus_before_scenario\.lua:6: scenario\{\} must come before ncpus\(\)
-- scenario{ cpus, era } decides the CPU count, so it cannot come after a
-- top-level ncpus() that has already answered.
local n = ncpus()
scenario{ name = "ncpus_before_scenario", cpus = n + 1 }
