-- expect-exit: 2
-- expect-stderr: names_utf8_above_10ffff\.lua:7: counter\{\}: 'name' is not valid UTF-8 text
-- A name with a code point above U+10FFFF (F4 90 80 80): it was taken as UTF-8, and the
-- JSON writer then dropped the counter from the report.  Refused where it
-- enters, with the line.  FIXED.
scenario{ name = "names_utf8_above_10ffff" }
local h = counter{ name = "x\xf4\x90\x80\x80" }
