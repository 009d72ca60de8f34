-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: loop_zero_time\.lua:8: instruction budget of 1000000 exceeded
-- compute(0) takes no simulated time: a loop of it never lets the clock
-- move, and ends on the instruction budget like any other loop.
scenario{ name = "loop_zero_time" }
task{ name = "t", run = function()
  while true do compute(0) end
end }
