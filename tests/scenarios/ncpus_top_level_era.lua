-- expect-exit: 0
-- expect-stdout: ok +ncpus\(\) said 2 at the top level; the run had 2
-- Without --cpus or scenario{ cpus }, the top level's ncpus() is the
-- era's CPU count: 1996's SMP machine had two.
scenario{ name = "ncpus_top_level_era", era = "1996" }
local n = ncpus()
task{ name = "t", run = function() compute(us(1)) end }
check(function(r)
  return n == r.cpus, "ncpus() said " .. n .. " at the top level; the run had " .. r.cpus
end)
