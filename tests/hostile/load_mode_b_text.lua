-- expect-exit: 2
-- expect-stderr: load_mode_b_text\.lua:5: load: binary chunks are not allowed in a scenario
-- Mode "b" alone is refused outright, even for a text chunk.
scenario{ name = "load_mode_b_text" }
local f = load("return 1", "x", "b")
