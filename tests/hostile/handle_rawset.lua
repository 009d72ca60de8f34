-- expect-exit: 2
-- expect-stderr: handle_rawset\.lua:7: bad argument #1 to 'rawset' \(table expected, got waitqueue\)
-- rawset goes around __newindex, but only on tables.
scenario{ name = "handle_rawset" }
local wq = waitqueue{ name = "wq" }
task{ name = "t", run = function()
  rawset(wq, "name", "other")
end }
