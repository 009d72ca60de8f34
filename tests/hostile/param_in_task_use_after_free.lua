-- expect-exit: 0
-- args: --report json
-- expect-stdout: "a": "1"
-- param() called during the run (here inside a task): the parameters the
-- reports show are those of the top level, and the report still has "a"
-- (the list the reports read is never reallocated under them; found by
-- fuzz_scenario).
scenario{ name = "param_in_task_use_after_free" }
local a = param("a", 1)
task{ name = "t", run = function()
  for i = 1, 40 do pcall(param, "late" .. i, i) end
  compute(us(1))
end }
