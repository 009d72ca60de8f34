-- expect-exit: 2
-- args: --set s=ÿþ --report json
-- expect-stderr: --set s.*UTF-8
-- A --set value that is not UTF-8 is refused as bad input, like names.
scenario{ name = "param_set_nonutf8" }
local s = param("s", "x")
task{ name = "t", run = function() log("%s", s) end }
