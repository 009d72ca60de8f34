-- expect-exit: 2
-- args: --report json
-- expect-stdout: "reason": ".*message_nonutf8_json\.lua:7:
-- An error message with bytes that are not UTF-8 still gives the JSON
-- report its "reason" (escaped), with the file and line.
scenario{ name = "message_nonutf8_json" }
task{ name = "t", run = function() error("caf\xe9") end }
