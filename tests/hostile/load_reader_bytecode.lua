-- expect-exit: 2
-- expect-stderr: load_reader_bytecode\.lua:11: attempt to load a binary chunk \(mode is 't'\)
-- A reader function that hands the "\27" signature and the rest of a
-- bytecode header in separate pieces: Lua looks at the first byte of the
-- stream, whatever the pieces.
scenario{ name = "load_reader_bytecode" }
local parts = { "\27", "Lua\84\0\25\147\13\10\26\10\4\8\8\120\86", ("\0"):rep(16) }
local i = 0
local f, err = load(function() i = i + 1 return parts[i] end)
-- (an error in the reader would also come back here)
assert(f, err)
