-- expect-exit: 1
-- args: --report json
-- expect-stdout: "ok": false
-- expect-stdout: "message": "check 1"
-- A failed check whose message holds a surrogate (ED A0 80): it was taken
-- as UTF-8, and the JSON writer then dropped the check, leaving exit 1
-- with "checks": [].  FIXED: the check stays, named "check 1".
scenario{ name = "names_utf8_check_message_surrogate" }
check(function() return false, "lost \xed\xa0\x80" end)
