-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: budget_toplevel_line\.lua:5: .*instruction budget
scenario{ name = "budget_toplevel_line" }
while true do end
