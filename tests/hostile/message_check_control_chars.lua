-- expect-exit: 1
-- expect-stdout: FAIL bad \\x1b\[31mred\\x07 \\u009b end
-- A failed check()'s message reached the text report as it was: ESC,
-- BEL and the C1 CSI went to the terminal of whoever ran the scenario.
-- FIXED (issue 28): spelled out, as print() and log() are on stderr.
scenario{ name = "message_check_control_chars", duration = us(50) }
local l = lock{ name = "l" }
task{ name = "t", run = function() down(l); compute(us(1)); up(l) end }
check(function(r) return false, "bad \27[31mred\7 \u{9b} end" end)
