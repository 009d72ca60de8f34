-- expect-exit: 2
-- expect-stderr: names_unit_nonutf8\.lua:5: counter\{\}: 'unit' is not valid UTF-8 text
-- A counter's unit.
scenario{ name = "names_unit_nonutf8" }
local c = counter{ name = "c", unit = "\x80" }
