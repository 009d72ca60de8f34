-- expect-exit: 2
-- expect-stderr: names_overlong_utf8\.lua:5: waitqueue\{\}: 'name' is not valid UTF-8 text
-- An overlong encoding of "/" (C0 AF) is not valid UTF-8.
scenario{ name = "names_overlong_utf8" }
local wq = waitqueue{ name = "\xc0\xaf" }
