-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: bad_pcall_budget\.lua:[0-9]+: instruction budget of 1000000 exceeded
-- pcall cannot swallow the budget error and keep going: once exceeded,
-- every instruction fails.
scenario{ name = "bad_pcall_budget" }
local swallowed = 0
task{ name = "t", run = function()
  for _ = 1, 1e9 do
    if not pcall(function() while true do end end) then swallowed = swallowed + 1 end
  end
end }
