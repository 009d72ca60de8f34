-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: budget_toplevel_line\.lua:9: .*instruction budget
-- PENDING (engine): a budget exceeded at the top level is reported without
-- the line ("FILE: instruction budget ...") although the contract asks for
-- file:line; inside a task the line is there.  Same for the memory budget
-- and for a pcall that swallows the budget error at the top level.
scenario{ name = "budget_toplevel_line" }
while true do end
