-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: endless_task_duration_hint\.lua:11: instruction budget .*; a task that never ends wants --duration \(it had simulated [0-9.]+ ms\)
-- A task that never ends, but whose loop takes simulated time: the
-- instruction budget stops it, and a newcomer is told that --duration is
-- the bound they want (a loop that never yields gets no such hint: see
-- bad_loop_task.lua).
scenario{ name = "endless", era = "2006", cpus = 2 }
local l = lock{ name = "l", kind = "mutex" }
task{ name = "spinner", run = function()
  while true do down(l); compute(us(1)); up(l) end
end }
