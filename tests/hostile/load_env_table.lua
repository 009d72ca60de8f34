-- expect-exit: 0
-- expect-stdout: outcome: completed
-- load() with an environment of the scenario's choosing reaches nothing
-- the scenario could not reach already.
scenario{ name = "load_env_table" }
local seen = load("return io, os, debug, package, require, dofile, loadfile", "x", "t", _G)
local got = { seen() }
local g = load("return string.dump", "y", "t", { string = string })()
check(function() return #got == 0 and g == nil, "nothing reachable" end)
