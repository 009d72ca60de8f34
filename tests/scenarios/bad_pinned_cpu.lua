-- expect-exit: 2
-- args: --era 2009 --cpus 2
-- expect-stderr: task 'far' is pinned to CPU 5, but the run has 2 CPUs
-- A task pinned to a CPU the run does not have.
scenario{ name = "bad_pinned_cpu" }
task{ name = "far", cpu = 5, run = function() compute(us(1)) end }
