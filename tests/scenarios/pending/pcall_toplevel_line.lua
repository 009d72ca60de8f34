-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: pcall_toplevel_line\.lua:7: .*instruction budget
-- PENDING (engine): as budget_toplevel_line.lua, with the error swallowed
-- by pcall at the top level: exit 2 is right, the line is missing.
scenario{ name = "pcall_toplevel_line" }
for _ = 1, 1e9 do pcall(function() while true do end end) end
