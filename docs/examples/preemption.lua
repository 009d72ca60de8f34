-- preemption.lua: how long does a woken task wait for a CPU that a busy
-- kernel thread is using?  It depends on the era's preemption model:
--   --era 2.5.28   preempt "none": the hog runs until it blocks or ends
--   --era 2.6.0    preempt "full": the hog is switched out as soon as the
--                  O(1) scheduler requeues it (its 10 ms TIMESLICE_GRANULARITY:
--                  the editor has the same priority, so no tick before that)
-- (An era with preempt "voluntary" would switch at the hog's next
-- might_sleep() point after that: here, its next down().)
scenario{
  name = "preemption",
  title = "Scheduling latency under each preemption model",
  era = "2.6.0",
  cpus = 1,
}

local l = lock{ name = "page_lock" }
local latency = var{ name = "latency_ns" }

task{ name = "hog", run = function()
  for i = 1, 5 do
    compute(ms(3))                       -- a long loop with no sleeping call
    down(l) up(l)                        -- a might_sleep() point
  end
end }

task{ name = "editor", start = us(100), run = function()
  write(latency, now() - us(100))        -- first time on the CPU
end }
