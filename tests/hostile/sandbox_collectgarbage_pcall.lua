-- expect-exit: 0
-- expect-stdout: outcome: completed
-- Refusals are ordinary errors (no budget is involved): pcall may catch
-- them, and the collector keeps running: this loop allocates about
-- 250 MB in all (2,000,000 tables of some 120 bytes; keeping 130,000 of
-- them already exceeds the budget) under a 16 MiB budget and finishes,
-- because garbage is collected.
-- args: --max-memory 16M
scenario{ name = "sandbox_collectgarbage_pcall" }
local ok1 = pcall(collectgarbage, "stop")
local ok2 = pcall(collectgarbage, "setpause", 1000)
for i = 1, 2e6 do local t = { i, i, i, i } end
check(function() return not ok1 and not ok2 and collectgarbage("isrunning"), "refused, still collecting" end)
