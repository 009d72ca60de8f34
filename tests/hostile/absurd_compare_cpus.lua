-- expect-exit: 2
-- command: compare
-- args: --cpus 1,100000
-- expect-stderr: --cpus: '100000' is not a CPU count from 1 to 1024
-- compare with a CPU count of 100000 in its list.
scenario{ name = "absurd_compare_cpus" }
task{ name = "t", run = function() compute(1) end }
