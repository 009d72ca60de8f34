-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: pcall_toplevel_line\.lua:5: .*instruction budget
scenario{ name = "pcall_toplevel_line" }
for _ = 1, 1e9 do pcall(function() while true do end end) end
