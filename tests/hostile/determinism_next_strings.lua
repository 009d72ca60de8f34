-- expect-exit: 0
-- A bare next() over string keys: Lua's order depends on a hash seed it
-- draws per process, so the order of the computes, and the trace, changed
-- from run to run.  FIXED: next() visits keys in pairs()'s order.
scenario{ name = "next_strings" }
local work = {}
for i = 1, 40 do work["k" .. i] = i end
task{ name = "walker", run = function()
  local k, v = next(work)
  local last
  while k ~= nil do
    assert(last == nil or last < k, "keys out of order")
    compute(v); last = k
    k, v = next(work, k)
  end
  assert(next({}) == nil)
end }
