-- expect-exit: 2
-- args: --max-wall 0.5
-- expect-stderr: recursion_load_tailcall\.lua: .*wall-clock budget of 0\.5 s exceeded
-- A chunk that compiles and tail-calls itself: no stack growth, a few Lua
-- instructions and a whole compilation per round.  The wall clock ends it
-- (the line is that of the load()ed chunk, prefixed by the file).
scenario{ name = "recursion_load_tailcall" }
src = "return load(src)()"
load(src)()
