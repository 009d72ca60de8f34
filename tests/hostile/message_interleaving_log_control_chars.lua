-- expect-exit: 0
-- args: --report interleaving
-- expect-stdout: log "x \\x1b\]0;title\\x07 y"
-- log() lines reached --report interleaving as they were: a scenario
-- could retitle or clear the terminal of whoever printed its sheet.
-- FIXED (issue 28): spelled out, as on stderr.
scenario{ name = "message_interleaving_log_control_chars", duration = us(50) }
local l = lock{ name = "l" }
task{ name = "t", run = function() down(l); log("x \27]0;title\7 y"); compute(us(1)); up(l) end }
