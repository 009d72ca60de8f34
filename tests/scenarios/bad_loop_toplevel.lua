-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: bad_loop_toplevel\.lua(:[0-9]+)?: instruction budget of 1000000 exceeded
-- An infinite loop at the top level hits the instruction budget.  (The
-- line is missing from this message: see pending/budget_toplevel_line.lua.)
scenario{ name = "bad_loop_toplevel" }
while true do end
