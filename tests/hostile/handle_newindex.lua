-- expect-exit: 2
-- expect-stderr: handle_newindex\.lua:6: a lock handle cannot be modified
-- Handles are read-only.
scenario{ name = "handle_newindex" }
local l = lock{ name = "l" }
l.name = "other"
