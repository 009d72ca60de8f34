-- expect-exit: 2
-- expect-stderr: wait_in_tostring\.lua:8: wait_for_completion\(\) cannot wait here
-- __tostring runs under tostring(), a C function: no waiting inside.
scenario{ name = "wait_in_tostring" }
local done = completion{ name = "done" }
local obj = setmetatable({}, {
  __tostring = function()
    wait_for_completion(done)
    return "obj"
  end,
})
task{ name = "t", run = function() local s = tostring(obj) end }
