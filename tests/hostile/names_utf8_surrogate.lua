-- expect-exit: 2
-- expect-stderr: names_utf8_surrogate\.lua:7: lock\{\}: 'name' is not valid UTF-8 text
-- A name with a surrogate (U+D800, ED A0 80): it was taken as UTF-8, and the
-- JSON writer then dropped the lock from the report.  Refused where it
-- enters, with the line.  FIXED.
scenario{ name = "names_utf8_surrogate" }
local h = lock{ name = "x\xed\xa0\x80" }
