-- expect-exit: 2
-- expect-stderr: c_stack_overflow_sort\.lua:[0-9]+: .*C stack overflow
-- FIXED (was pending): -- NO POSITION (engine bug): the same through table.sort comparators, in a task.
scenario{ name = "c_stack_overflow_sort" }
task{ name = "t", run = function()
  local function cmp(a, b) table.sort({ 2, 1 }, cmp) return a < b end
  table.sort({ 2, 1 }, cmp)
end }
