-- expect-exit: 0
-- A table keyed by lock handles, walked with pairs(): the order was the
-- hash order of the handles' addresses, so the order the locks were taken
-- in, and the trace, changed from run to run (tests/run_determinism.sh).
-- FIXED: handles are visited by kind, then in declaration order.
scenario{ name = "pairs_handles", cpus = 2 }
local held = {}
for i = 1, 24 do held[lock{ name = "l" .. i }] = i end
task{ name = "walker", run = function()
  local order = {}
  for l, i in pairs(held) do
    down(l); compute(i * 10); up(l)
    order[#order + 1] = i
  end
  for i = 1, #order do assert(order[i] == i, "handles out of declaration order") end
end }
