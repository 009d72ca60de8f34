-- expect-exit: 0
-- args: --report json
-- expect-stdout: "message": "3 keys or more"
-- The report table's __pairs called the global pairs() at call time, so
-- a scenario that replaced pairs() steered the engine's own code.  FIXED:
-- it calls the sandbox's pairs(), bound when the sandbox is built.
scenario{ name = "replaced_pairs_report" }
local real = pairs
pairs = function(t) error("the scenario's pairs() was called") end
task{ name = "t", run = function() compute(10) end }
check(function(r)
  local n = 0
  for k in real(r) do n = n + 1 end
  return n >= 3, "3 keys or more"
end)
