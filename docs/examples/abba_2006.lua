-- abba_2006.lua: the classic AB-BA deadlock.  rename() takes the two
-- directories' locks in one order, link() in the other.  Both tasks end up
-- asleep, each waiting for the lock the other holds: the run ends with
-- outcome "deadlock" and exit status 3.  --set ordered=true takes the locks
-- in the same order on both paths, and the run completes.  --set timer=true
-- adds a timer interrupt: the verdict then waits for 64 of its firings, in
-- case its handler would have woken someone.
scenario{
  name = "abba_2006",
  title = "Two mutexes taken in opposite orders",
  era = "2.6.16",
  cpus = 2,
}

local ordered = param("ordered", false)
local timer   = param("timer", false)

local a = lock{ name = "old_dir->i_mutex", kind = "mutex" }
local b = lock{ name = "new_dir->i_mutex", kind = "mutex" }

task{ name = "rename", run = function()
  down(a) compute(us(10)) down(b)
  compute(us(5))
  up(b) up(a)
end }

task{ name = "link", run = function()
  local first, second = b, a
  if ordered then first, second = a, b end
  down(first) compute(us(10)) down(second)
  compute(us(5))
  up(second) up(first)
end }

if timer then
  irq{ name = "timer", cpu = 0, every = ms(1), handler = function() compute(us(2)) end }
end
