-- expect-exit: 2
-- expect-stderr: bad_string_dump\.lua:5: attempt to call a nil value \(field 'dump'\)
-- string.dump is removed (no way to make binary chunks).
scenario{ name = "bad_string_dump" }
local b = string.dump(function() end)
