-- expect-exit: 2
-- expect-stderr: message_multiline_syntax\.lua:12: invalid escape sequence
-- FIXED (was pending): -- TWO LINES AND RAW BYTES (engine bug, found by fuzz_scenario).  Lua's
-- lexer quotes the string it was reading, escapes already decoded: here a
-- newline (\10) and a 0xFF byte (\255).  The message is printed as is --
-- two lines on stderr, one of them not UTF-8 -- and with --report json
-- the "reason" is silently missing (jansson refuses the string).  Any
-- message the host prints should be made one line of valid UTF-8
-- (control bytes and bad sequences escaped) before it is shown or put in
-- the report.
scenario{ name = "message_multiline_syntax" }
local s = "a\10b\255\q"
