-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: bad_pcall_budget_toplevel\.lua(:[0-9]+)?: instruction budget of 1000000 exceeded
-- The same at the top level, wrapped in pcall twice.
scenario{ name = "bad_pcall_budget_toplevel" }
for _ = 1, 1e9 do
  pcall(pcall, function() while true do end end)
end
