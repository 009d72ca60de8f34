-- expect-exit: 0
-- args: --cpus 6
-- expect-stdout: ok +6 workers, one per CPU, on 6 CPUs
-- ncpus() at the top level gives the CPU count the run will have (here
-- --cpus), so a scenario can declare one task per CPU.
scenario{ name = "ncpus_top_level" }
local n = ncpus()
local ran = {}
for c = 0, n - 1 do
  task{ name = "worker" .. c, cpu = c, run = function()
    compute(us(1)); ran[#ran + 1] = cpu()
  end }
end
check(function(r)
  return #ran == n and r.cpus == n and ncpus() == n,
         #ran .. " workers, one per CPU, on " .. r.cpus .. " CPUs"
end)
