-- expect-exit: 2
-- args: --max-wall 1
-- expect-stderr: pattern_backtracking_task\.lua: wall-clock budget of 1 s exceeded inside one library call
-- As pattern_backtracking.lua, inside a task, with lazy quantifiers.
scenario{ name = "pattern_backtracking_task" }
task{ name = "t", run = function()
  string.match(("a"):rep(40), ("a-"):rep(40) .. "$b")
end }
