-- expect-exit: 2
-- args: --set s=ÿþ --report json
-- expect-stderr: --set s.*UTF-8
-- FIXED (was pending): -- SILENTLY DROPPED (engine bug): a --set value that is not UTF-8 is
-- accepted as a string parameter; the text report prints the raw bytes
-- and the JSON report leaves the parameter out (jansson refuses the
-- string) without a word.  Fix: refuse it as bad input, like names.
scenario{ name = "param_set_nonutf8" }
local s = param("s", "x")
task{ name = "t", run = function() log("%s", s) end }
