scenario{ name = "uaf" }
local a = param("a", 1)
task{ name = "t", run = function()
  for i = 1, 40 do param("late" .. i, i) end
  compute(us(1))
end }
