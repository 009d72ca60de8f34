-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: loop_check\.lua: check\(\): .*loop_check\.lua:10: instruction budget of 1000000 exceeded
-- A check() that never returns: the run itself completed, but the
-- instruction budget is for the whole run, checks included.
scenario{ name = "loop_check" }
task{ name = "t", run = function() compute(us(10)) end }
check(function(report)
  local n = 0
  while true do n = n + 1 end
end)
