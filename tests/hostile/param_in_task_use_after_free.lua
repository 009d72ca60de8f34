-- expect-exit: 0
-- args: --report json
-- expect-stdout: "a": "1"
-- FIXED (was pending): -- CRASH: HEAP USE-AFTER-FREE (engine bug, found by fuzz_scenario).
-- param() called during the run (here inside a task) adds to the
-- scenario's parameter list with realloc (scenario.c, l_param), but the
-- session took a pointer to that list when the top level finished
-- (session.c: s->ri.params = km_scenario_params(...)) and the reports read
-- it afterwards: report_json.c reads freed memory (ASan:
-- heap-use-after-free in km_report_json; valgrind: invalid reads).  The
-- release build prints "params": {} here -- the parameter "a" is lost --
-- or worse.  Fix: refuse param() outside the top level (pcall below
-- keeps this test valid then), or re-read the list after the run.
scenario{ name = "param_in_task_use_after_free" }
local a = param("a", 1)
task{ name = "t", run = function()
  for i = 1, 40 do pcall(param, "late" .. i, i) end
  compute(us(1))
end }
