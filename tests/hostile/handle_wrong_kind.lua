-- expect-exit: 2
-- expect-stderr: handle_wrong_kind\.lua:7: bad argument #1 to 'wait_for_completion' \(completion expected, got waitqueue\)
-- One kind of handle where another is expected.
scenario{ name = "handle_wrong_kind" }
local wq = waitqueue{ name = "wq" }
task{ name = "t", run = function()
  wait_for_completion(wq)
end }
