-- one_event.lua - the smallest run there is: one task that does nothing.
-- What `make bench` times it for is everything around the run: starting
-- the program, loading the eras, loading this file, reporting.
scenario{ name = "one_event", era = "2023", cpus = 1 }
task{ name = "t", run = function() end }
