-- Non-scalable locks are dangerous: a ticket spinlock collapses on 48 cores.
--
-- Boyd-Wickizer, Kaashoek, Morris and Zeldovich (Linux Symposium 2012) ran a
-- microbenchmark on a 48-core Opteron: each core does some work of its own,
-- then takes one spinlock for a short serial section.  With the kernel's
-- ticket lock, throughput rises with the cores, then falls off a cliff within
-- a few added cores: each release invalidates every spinner's copy of the
-- lock's line, the spinners re-read it one at a time from its home, and the
-- next holder waits, on average, for half of them.  More waiters make every
-- hand-off slower, which lets more waiters pile up.  The same benchmark under
-- an MCS lock, whose waiters each spin on a line of their own, levels off
-- instead: a hand-off is one line transfer however many wait.
--
-- The shape here is their Figure 9's first case (docs/research/coherence.md,
-- P from a copy of the figure): a 400-cycle serial section (167 ns at
-- 2.4 GHz), 2% of one core's time, so 8,183 ns of work outside the lock.  As
-- the paper's Markov model assumes, the work outside the lock is drawn from
-- an exponential distribution (the run's seed draws it).
--
-- One task a CPU, pinned; each loops for `window_us` of simulated time.
--
-- Try:  lockmuseum compare scripts/spin_collapse.lua --modes spinlock
--         --cpus 1,4,8,12,16,24,32,48 --sets lock=ticket,mcs --markov
--       (compare --markov draws the model for the same a, s and c)

scenario{
  name = "spin_collapse",
  title = "A ticket spinlock collapses on 48 cores; an MCS lock does not",
  era = "2012",
  cpus = 48,
  seed = 2012,
}

local flavour   = param("lock", "ticket")   -- "ticket" or "mcs"
local serial_ns = param("serial_ns", 167)   -- s: 400 cycles at 2.4 GHz
local work_ns   = param("work_ns", 8183)    -- a: the mean work outside the lock
local window_us = param("window_us", 400)   -- how long each core loops

local l = lock{ name = "bench_lock", kind = "spinlock", spin = flavour }
local done = counter{ name = "operations", unit = "operations" }

-- Exponential with mean m, from the run's generator (math.random is seeded
-- by --seed).
local function exp_ns(m)
  local u = math.random()
  if u <= 0 then u = 1e-12 end
  return math.floor(-m * math.log(u) + 0.5)
end

for c = 0, ncpus() - 1 do
  task{
    name = "core" .. c,
    cpu = c,
    run = function()
      local stop = us(window_us)
      while now() < stop do
        compute(exp_ns(work_ns))
        down(l)
        compute(serial_ns)
        up(l)
        counter_add(done, 1)
      end
    end,
  }
end

-- The speedup, as the paper plots it: throughput in units of one core's
-- rate, 1/(a + s).
check(function(r)
  local ops = r.counters.operations.value
  local per_s = ops / (r.sim_time_ns / 1e9)
  return true, string.format("%s lock on %d cores: %d operations, %.0f per second, "
    .. "speedup %.1f (one core alone: 1.0)", flavour, r.cpus, ops, per_s,
    per_s * (work_ns + serial_ns) / 1e9)
end)
