-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: anchor_far_line\.lua:[0-9]+: load:2000001: instruction budget of 1000000 exceeded
-- A C function declared as a task body is wrapped on its declaring line,
-- which compiles one newline per line above it.  A chunk that declares it
-- at line two million made that a free way to burn seconds; the padding
-- is now charged to the instruction budget.
scenario{ name = "anchor_far_line" }
local f = load(string.rep("\n", 2000000) .. "task{ name = 't', run = compute }")
f()
