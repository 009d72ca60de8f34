-- spinlock_2003.lua: Linux 2.6.0 on four CPUs.  Four tasks, one per CPU,
-- hammer one spinlock.  Waiters burn their CPU (the "spin" column).  Run it
-- under later eras to see the flavours: --era 2.6.26 (ticket), --era 4.2
-- (queued).  With --set sleep_holding=true one task sleeps while holding
-- the lock: "scheduling while atomic".
scenario{
  name = "spinlock_2003",
  title = "A spinlock on four CPUs, and sleeping while holding one",
  era = "2.6.0",
  cpus = 4,
}

local sleep_holding = param("sleep_holding", false)
local rounds = param("rounds", 200)

local lru_lock = lock{ name = "lru_lock", kind = "spinlock" }
local nr_pages = var{ name = "nr_pages" }

for i = 0, 3 do
  task{ name = "kswapd/" .. i, cpu = i, run = function()
    for k = 1, rounds do
      down(lru_lock)                         -- spin_lock(&lru_lock)
      add(nr_pages, 1)
      compute(ns(400))
      if sleep_holding and i == 0 and k == 1 then
        sleep(us(10))                        -- BUG: sleeps holding a spinlock
      end
      up(lru_lock)                           -- spin_unlock(&lru_lock)
      compute(ns(300))
    end
  end }
end

check(function(r)
  return r.vars.nr_pages == 4 * rounds,
         string.format("nr_pages = %d of %d", r.vars.nr_pages, 4 * rounds)
end)
