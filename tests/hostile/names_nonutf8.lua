-- expect-exit: 2
-- expect-stderr: names_nonutf8\.lua:5: var\{\}: 'name' is not valid UTF-8 text
-- Latin-1 bytes in a name (they would corrupt the JSON report).
scenario{ name = "names_nonutf8" }
local v = var{ name = "caf\xe9" }
