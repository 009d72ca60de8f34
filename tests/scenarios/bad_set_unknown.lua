-- expect-exit: 2
-- args: --set lopps=3
-- expect-stderr: --set lopps.*no parameter 'lopps'.*loops
-- --set of a parameter the scenario does not have.
scenario{ name = "bad_set_unknown" }
local loops = param("loops", 3)
task{ name = "t", run = function() compute(us(loops)) end }
