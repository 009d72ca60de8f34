-- 128 tasks that each take one mutex forty times: no deadlock, and a
-- space of schedules far too large to run.  exhaustive:K keeps only the
-- runs of its current path, not the pending subtrees, and holds what it
-- keeps to --max-memory: past it, it stops and says what it did (exit 2).
scenario{ name = "many_tasks", era = "2006", cpus = 4 }
local a = lock{ name = "a", kind = "mutex" }
for i = 1, 128 do
  task{ name = "t" .. i, run = function()
    for _ = 1, 40 do
      down(a)
      compute(us(1))
      up(a)
    end
  end }
end
