-- expect-exit: 2
-- args: --set s=í € --report json
-- expect-stderr: --set s.*UTF-8
-- expect-stdout: "outcome": "error"
-- A --set value that is a surrogate (ED A0 80) passed the UTF-8 check,
-- and the JSON report then left the parameter out.  FIXED: refused.
scenario{ name = "param_set_surrogate" }
local s = param("s", "x")
task{ name = "t", run = function() log("%s", s) end }
