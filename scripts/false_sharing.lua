-- False sharing: two counters that share nothing but a cache line.
--
-- Two tasks on two CPUs each increment a counter of their own -- no lock,
-- no race, nothing shared in the program.  But the machine moves memory a
-- cache line at a time, and when both counters sit on one line each
-- increment must take the line exclusive, invalidating the other CPU's copy,
-- and the next increment over there must fetch it back: the line ping-pongs
-- between the two caches as if the counters were one.  The kernel's answer
-- is to keep such fields apart (____cacheline_aligned_in_smp, per-CPU data).
--
-- var{ line = "NAME" } puts variables on one named line; without it each
-- variable has a line of its own.  The default machine is the 2012 era's
-- 48-core Opteron: CPU 0 and CPU 6 sit on neighbouring sockets, one
-- HyperTransport hop apart.
--
-- Try:  lockmuseum run scripts/false_sharing.lua
--       lockmuseum run scripts/false_sharing.lua --set shared=false
--       --set cpu_b=1 (the same chip: a cheaper transfer, the same lesson)

scenario{
  name = "false_sharing",
  title = "Two counters, one cache line",
  era = "2012",
  cpus = 12,
  seed = 1,
}

local shared = param("shared", true)   -- both counters on one line
local loops  = param("loops", 1000)    -- increments per task
local work   = param("work_ns", 20)    -- other work between increments
local cpu_b  = param("cpu_b", 6)       -- the second task's CPU

local line = shared and "counters" or nil
local a = var{ name = "count_a", line = line }
local b = var{ name = "count_b", line = line }

local function counting(v)
  return function()
    for _ = 1, loops do
      add(v, 1)
      compute(work)
    end
  end
end

task{ name = "inc_a", cpu = 0, run = counting(a) }
task{ name = "inc_b", cpu = cpu_b, run = counting(b) }

-- The lesson, stated where it holds: one line costs a transfer an access,
-- two lines cost nothing after the first touch.
check(function(r)
  local per = 0
  for _, t in ipairs(r.tasks) do per = math.max(per, t.end_ns / loops) end
  local inc = per - work
  local msg = string.format("%s: %.0f ns per increment besides the %d ns of work "
    .. "(count_a %d, count_b %d)", shared and "one shared line" or "a line each",
    inc, work, r.vars.count_a, r.vars.count_b)
  if r.vars.count_a ~= loops or r.vars.count_b ~= loops then
    return false, msg .. ": an increment was lost"
  end
  if shared then
    return inc >= 50, msg .. ": the line ping-pongs between the CPUs"
  end
  return inc <= 15, msg .. ": each counter stays in its CPU's cache"
end)
