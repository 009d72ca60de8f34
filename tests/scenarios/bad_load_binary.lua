-- expect-exit: 2
-- expect-stderr: bad_load_binary\.lua:6: .*binary chunks are not allowed
-- load() of a binary chunk is refused, even when asked for mode "b".
scenario{ name = "bad_load_binary" }
local chunk = "\27Lua\84\0\25\147\13\10\26\10\4\8\8\120\86\0\0\0\0\0\0\0\0\0\0\0\40\119\64"
local f, err = load(chunk, "x", "b")
error(err or "loaded a binary chunk")
