-- expect-exit: 0
-- expect-stdout: outcome: completed
-- Handles have a locked metatable: getmetatable() returns the string
-- "locked", never the table with the methods.
scenario{ name = "handle_getmetatable_locked" }
local hs = { lock{ name = "l" }, var{ name = "v" }, atomic{ name = "a" }, counter{ name = "c" },
  waitqueue{ name = "w" }, completion{ name = "co" },
  task{ name = "t", run = function() compute(us(1)) end },
  irq{ name = "i", every = us(100), handler = function() end } }
check(function()
  for _, h in ipairs(hs) do
    if getmetatable(h) ~= "locked" then return false, tostring(h) .. " shows its metatable" end
  end
  return true, "every handle's metatable is locked"
end)
