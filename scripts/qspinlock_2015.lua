-- Queued spinlocks against ticket spinlocks on the machine of the
-- qspinlock series (4.2, 2015).
--
-- Waiman Long measured his queued spinlock on a 4-socket Westmere-EX
-- (commits a33fda35e3a7 and 2c83e8e9492d): "much faster in high
-- contention", "potentially a bit slower" when one to three CPUs wait.
-- His AIM7 disk workload on ext4, 3000 users hammering the file system,
-- went from 1,114,551 to 2,184,466 jobs per minute (1.96x) on a kernel
-- whose spinlocks he swapped; on XFS, which contended less, +1.3%.
--
-- Each CPU runs one task that loops: work of its own, then spin_lock(),
-- a short critical section that writes the data the lock guards, and
-- spin_unlock().  Two shapes, both stated before any run:
--  - heavy contention (the default): every CPU of the machine (40), the
--    critical section 400 cycles at 2.13 GHz (188 ns), 2% of one CPU's
--    loop, the work outside exponential with mean 9,212 ns -- the
--    benchmark shape of the 2012 exhibit ([BW12] Figure 9), unchanged but
--    for the clock;
--  - light contention: --cpus 2, 3 or 4 with --set work_ns=0, a tight loop
--    like Long's microbenchmark: one to three CPUs always waiting.
-- Under a ticket lock every release makes every waiter re-read the lock's
-- line, one at a time at its home; under the queued lock only the pending
-- waiter and the queue's head read it, the others each spin on a line of
-- their own, and a hand-off touches two lines however many wait.
--
-- Try:  lockmuseum run scripts/qspinlock_2015.lua --set lock=ticket
--       lockmuseum run scripts/qspinlock_2015.lua --set lock=queued
--       ... --cpus 3 --set work_ns=0 (light contention), --set spread=true
--       (the light-contention tasks one a socket), --set data_lines=4 (the
--       section writes four lines, not one; 0: none, Long's bare lock-unlock
--       loop), --set start_ns=1000 (each CPU
--       starts after a drawn delay: with work_ns=0, the queue in a random
--       order instead of the CPUs')

scenario{
  name = "qspinlock_2015",
  title = "Queued spinlocks against ticket spinlocks on a 4-socket Westmere-EX",
  era = "2015",
  cpus = 40,
  seed = 2015,
}

local flavour   = param("lock", "queued")   -- "queued" or "ticket"
local cs_ns     = param("cs_ns", 188)       -- s: 400 cycles at 2.13 GHz
local work_ns   = param("work_ns", 9212)    -- a: the mean work outside the lock
local window_us = param("window_us", 300)   -- how long each CPU loops
local spread    = param("spread", false)    -- one task a socket (10 CPUs apart)
local embedded  = param("embedded", false)  -- the lock on the line of the data it guards
local data_lines = param("data_lines", 1)   -- lines the section writes, each its own (0: none)
local start_ns  = param("start_ns", 0)     -- each CPU's start, drawn: 0, all together
if type(start_ns) ~= "number" or start_ns ~= start_ns or start_ns < 0 or start_ns > 1e9 then
  error("--set start_ns: a number of ns from 0 to 1e9")
end
if type(data_lines) ~= "number" or data_lines ~= math.floor(data_lines)
   or data_lines < 0 or data_lines > 16 then
  error("--set data_lines: a whole number from 0 to 16")
end

local l = lock{ name = "hot_lock", kind = "spinlock", spin = flavour,
                line = embedded and "hot_data" or nil }
local data = var{ name = "guarded", line = embedded and "hot_data" or nil }
-- The further lines a section may dirty (--set data_lines=4: a what-if
-- for a section that writes more than its one variable), each a line of
-- its own, written after the first; none by default.
local more = {}
for i = 2, data_lines do
  more[#more + 1] = var{ name = "guarded" .. i }
end
local done = counter{ name = "operations", unit = "operations" }

-- Exponential with mean m, from the run's generator (seeded by --seed).
local function exp_ns(m)
  if m <= 0 then return 0 end
  local u = math.random()
  if u <= 0 then u = 1e-12 end
  return math.floor(-m * math.log(u) + 0.5)
end

local n = ncpus()
if spread then n = math.min(n, 4) end
for i = 0, n - 1 do
  local c = spread and i * 10 or i
  task{
    name = "cpu" .. c,
    cpu = c,
    run = function()
      local stop = us(window_us)
      -- All together (the default), the CPUs queue in CPU order; a FIFO
      -- lock keeps that order while each comes straight back (work_ns=0),
      -- so neighbours hand on to neighbours.  A drawn start queues them in
      -- a random order instead.
      if start_ns > 0 then compute(exp_ns(start_ns)) end
      while now() < stop do
        compute(exp_ns(work_ns))
        down(l)
        if data_lines > 0 then add(data, 1) end
        for _, v in ipairs(more) do add(v, 1) end
        compute(cs_ns)
        up(l)
        counter_add(done, 1)
      end
    end,
  }
end

check(function(r)
  local ops = r.counters.operations.value
  local per_s = ops / (r.sim_time_ns / 1e9)
  local lost = data_lines > 0 and r.vars.guarded ~= ops
  return not lost, string.format("%s lock, %d CPUs: %d operations, %.0f per second, "
    .. "%.0f ns per acquisition%s", flavour, n, ops, per_s, 1e9 / per_s,
    lost and ": an update was lost" or "")
end)
