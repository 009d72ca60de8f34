-- expect-exit: 2
-- expect-stderr: bad_load_binary_text\.lua:7: .*attempt to load a binary chunk
-- load() without a mode is text-only: a binary chunk comes back as an error.
scenario{ name = "bad_load_binary_text" }
local chunk = "\27Lua\84\0\25\147\13\10\26\10\4\8\8\120\86\0\0\0\0\0\0\0\0\0\0\0\40\119\64"
local f, err = load(chunk)
assert(f, err)
