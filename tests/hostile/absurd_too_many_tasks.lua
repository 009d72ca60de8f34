-- expect-exit: 2
-- expect-stderr: absurd_too_many_tasks\.lua:8: task\{\}: more than 1,000,000 tasks
-- One task more than the most a scenario may declare (about 2.5 s).
scenario{ name = "absurd_too_many_tasks", cpus = 1 }
local function run() end
local n = 0
repeat
  task{ name = "t", run = run }
  n = n + 1
until n > 1000000
