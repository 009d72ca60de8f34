-- expect-exit: 2
-- expect-stderr: handle_index_unknown\.lua:6: a completion handle has no field '__gc' \(it has: name, id\)
-- Reading a field a handle does not have (even a metamethod's name).
scenario{ name = "handle_index_unknown" }
local c = completion{ name = "c" }
local f = c.__gc
