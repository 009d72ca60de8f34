-- expect-exit: 2
-- expect-stderr: sandbox_string_dump_method\.lua:6: attempt to call a nil value \(method 'dump'\)
-- string.dump is gone from the string metatable's __index as well (the same
-- table): no way to make bytecode.
scenario{ name = "sandbox_string_dump_method" }
local b = (""):dump(function() end)
