-- expect-exit: 2
-- args: --max-wall 2
-- expect-stderr: pattern_backtracking_task\.lua:[0-9]+: wall-clock budget of 2 s exceeded
-- HANG (engine bug).  The same inside a task, with lazy quantifiers.
scenario{ name = "pattern_backtracking_task" }
task{ name = "t", run = function()
  string.match(("a"):rep(40), ("a-"):rep(40) .. "$b")
end }
