-- expect-exit: 2
-- args: --cpus 4 --era 2023
-- expect-stderr: numbers_spawn_cpu_negative\.lua:7: spawn\{\}: 'cpu' must be between 0 and 3, got -1
-- spawn{} on CPU -1 (the bound is the run's CPU count).
scenario{ name = "numbers_spawn_cpu_negative" }
task{ name = "t", run = function()
  spawn{ name = "s", cpu = -1, run = function() end }
end }
