-- expect-exit: 1
-- args: --report json
-- expect-stdout: "message": "check 1"
-- A failed check whose message is not UTF-8: exit 1 (a failed check), and
-- the report names it "check 1" instead of copying the bytes.
scenario{ name = "names_check_message_nonutf8" }
check(function() return false, "\xff\xfe" end)
