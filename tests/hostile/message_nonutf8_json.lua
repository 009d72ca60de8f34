-- expect-exit: 2
-- args: --report json
-- expect-stdout: "reason": ".*message_nonutf8_json\.lua:8:
-- FIXED (was pending): -- NO REASON IN THE JSON REPORT (engine bug): an error message with bytes
-- that are not UTF-8 makes jansson refuse the "reason" string, and the
-- error object goes out without one (stdout is still JSON).
scenario{ name = "message_nonutf8_json" }
task{ name = "t", run = function() error("caf\xe9") end }
