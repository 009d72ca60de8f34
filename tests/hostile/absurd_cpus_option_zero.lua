-- expect-exit: 2
-- args: --cpus 0
-- expect-stderr: --cpus 0: must be a whole number from 1 to 1024
-- --cpus 0: the message names the option.
scenario{ name = "absurd_cpus_option_zero" }
task{ name = "t", run = function() compute(1) end }
