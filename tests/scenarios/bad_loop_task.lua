-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: bad_loop_task\.lua:7: .*instruction budget of 1000000 exceeded \(raise it with --max-instructions\)$
-- An infinite loop inside a task (it never yields: simulated time stands still).
scenario{ name = "bad_loop_task" }
task{ name = "spinner", run = function()
  local x = 0; while true do x = x + 1 end
end }
