-- expect-exit: 0
-- args: --era 2009 --set loops=7 --set label=seven --set fast=true --set scale=2.5
-- expect-stdout: ok +loops=7 label=seven fast=true scale=2.5
-- param() takes --set values, converted to the default's type.
scenario{ name = "param_set" }
local loops = param("loops", 3)
local label = param("label", "three")
local fast = param("fast", false)
local scale = param("scale", 1.0)
local untouched = param("untouched", 42)
local v = var{ name = "count" }
task{ name = "t", run = function()
  for _ = 1, loops do add(v, 1) end
end }
check(function(r)
  local ok = r.vars.count == 7 and math.type(loops) == "integer" and label == "seven"
    and fast == true and scale == 2.5 and untouched == 42
  return ok, string.format("loops=%d label=%s fast=%s scale=%s", loops, label, tostring(fast), scale)
end)
