-- expect-exit: 2
-- args: --cpus 100000
-- expect-stderr: --cpus 100000: must be a whole number from 1 to 1024
-- --cpus 100000.
scenario{ name = "absurd_cpus_option_100000" }
task{ name = "t", run = function() compute(1) end }
