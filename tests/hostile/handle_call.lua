-- expect-exit: 2
-- expect-stderr: handle_call\.lua:6: attempt to call a atomic value \(local 'a'\)
-- Handles are not callable.
scenario{ name = "handle_call" }
local a = atomic{ name = "a" }
a()
