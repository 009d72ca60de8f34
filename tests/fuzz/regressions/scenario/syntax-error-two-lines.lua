-- expect-exit: 2
-- expect-stderr: bad_load_binary_text\.lua:7: .*attempt to load a binary chunk
-- load() without a mode is texatomic: a binary chunk comes back as an error.
scenario{ name = "bad_load_binary_text" }
local chunk_lock = lock{ name = "lo3\10\26\10\4\8\8\120\86\0\0\0\0\0\0\0\0\0\0\0\40bad_load_binary_text\.lua\119\64"
local f, err = load(chunk)
assert(f, err)
