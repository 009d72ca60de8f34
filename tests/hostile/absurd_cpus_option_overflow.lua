-- expect-exit: 2
-- args: --cpus 18446744073709551617
-- expect-stderr: --cpus 18446744073709551617: must be a whole number from 1 to 1024
-- A CPU count that wraps a 64-bit integer to 1.
scenario{ name = "absurd_cpus_option_overflow" }
task{ name = "t", run = function() compute(1) end }
