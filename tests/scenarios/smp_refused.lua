-- expect-exit: 2
-- args: --era 1991 --cpus 2
-- expect-stderr: --cpus 2: Linux 0\.01 \(1991\) ran on one CPU; SMP arrived in 2\.0
-- Two CPUs in 1991 are an anachronism too.
scenario{ name = "smp_refused" }
task{ name = "t", run = function() compute(us(1)) end }
