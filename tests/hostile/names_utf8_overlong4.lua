-- expect-exit: 2
-- expect-stderr: names_utf8_overlong4\.lua:7: var\{\}: 'name' is not valid UTF-8 text
-- A name with an overlong four-byte form (F0 80 80 AF): it was taken as UTF-8, and the
-- JSON writer then dropped the var from the report.  Refused where it
-- enters, with the line.  FIXED.
scenario{ name = "names_utf8_overlong4" }
local h = var{ name = "x\xf0\x80\x80\xaf" }
