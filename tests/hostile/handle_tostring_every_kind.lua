-- expect-exit: 0
-- expect-stdout: outcome: completed
-- tostring(), .name and .id on every kind of handle, before and during
-- the run, for declared and spawned tasks and for an irq's current().
scenario{ name = "handle_tostring_every_kind" }
local hs = { lock{ name = "l" }, var{ name = "v" }, atomic{ name = "a" }, counter{ name = "c" },
  waitqueue{ name = "w" }, completion{ name = "co" } }
local seen = {}
for _, h in ipairs(hs) do seen[#seen + 1] = tostring(h) .. h.name .. h.id end
task{ name = "t", run = function()
  for _, h in ipairs(hs) do seen[#seen + 1] = tostring(h) .. h.name .. h.id end
  local s = spawn{ name = "s", run = function() seen[#seen + 1] = tostring(current()) end }
  seen[#seen + 1] = tostring(s) .. s.name .. s.id
  compute(us(300))
end }
irq{ name = "i", every = us(50), handler = function() seen[#seen + 1] = tostring(current()) .. current().name end }
check(function()
  local all = table.concat(seen, ";")
  return all:find("lock 'l'l0", 1, true) and all:find("task 's'", 1, true)
    and all:find("irq 'i'i", 1, true), all:sub(1, 100)
end)
