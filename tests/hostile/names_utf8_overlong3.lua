-- expect-exit: 2
-- expect-stderr: names_utf8_overlong3\.lua:7: task\{\}: 'name' is not valid UTF-8 text
-- A name with an overlong three-byte form of "/" (E0 80 AF): it was taken as UTF-8, and the
-- JSON writer then dropped the task from the report.  Refused where it
-- enters, with the line.  FIXED.
scenario{ name = "names_utf8_overlong3" }
task{ name = "t\xe0\x80\xaf", run = function() end }
