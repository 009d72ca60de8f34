-- expect-exit: 2
-- expect-stderr: message_multiline_syntax\.lua:7: invalid escape sequence
-- A syntax error whose message quotes decoded escapes (a newline, a 0xFF
-- byte; found by fuzz_scenario): the message is printed as one line of
-- valid UTF-8 with the file and line, and the JSON report keeps it.
scenario{ name = "message_multiline_syntax" }
local s = "a\10b\255\q"
