-- lockops: the Lua lock-operation benchmark.  `tasks` tasks share
-- `rounds` rounds between them; a round is down(l), compute(hold_ns),
-- up(l), with task i on lock i % locks, then compute(think_ns) if given.
-- Run it in a mode (--mode semaphore|mutex|spinlock) to time that
-- primitive; the era (2023) has all three.
scenario{
  name = "bench_lockops",
  title = "benchmark: down + compute + up rounds",
  era = "2023",
  cpus = 8,
  seed = 1,
  duration = sec(1000000),
}

local tasks  = param("tasks", 64)
local rounds = param("rounds", 100000)
local nlocks = param("locks", 1)
local hold   = param("hold_ns", 100)
local think  = param("think_ns", 0)
if tasks < 1 or nlocks < 1 then error("--set tasks, locks: at least 1") end

local locks = {}
for i = 1, nlocks do
  locks[i] = lock{ name = "l" .. i, kind = "semaphore" }
end

local done = counter{ name = "rounds" }
local per, extra = rounds // tasks, rounds % tasks
for i = 1, tasks do
  local n = per + (i <= extra and 1 or 0)
  local l = locks[(i - 1) % nlocks + 1]
  task{ name = "w" .. i, run = function()
    for _ = 1, n do
      down(l)
      compute(hold)
      up(l)
      if think > 0 then compute(think) end
    end
    counter_add(done, n)
  end }
end

check(function(r)
  return r.counters.rounds.value == rounds, r.counters.rounds.value .. " rounds"
end)
