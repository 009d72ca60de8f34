-- expect-exit: 2
-- expect-stderr: names_utf8_unit_surrogate\.lua:5: counter\{\}: 'unit' is not valid UTF-8 text
-- A counter's unit with a surrogate (ED B0 80): refused where it enters.
scenario{ name = "names_utf8_unit_surrogate" }
local c = counter{ name = "c", unit = "\xed\xb0\x80" }
