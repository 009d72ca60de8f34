-- expect-exit: 2
-- expect-stderr: handle_compare\.lua:6: attempt to compare two lock values
-- Handles have no order.
scenario{ name = "handle_compare" }
local a, b = lock{ name = "a" }, lock{ name = "b" }
local x = a < b
