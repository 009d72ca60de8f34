-- expect-exit: 2
-- expect-stderr: c_stack_overflow_sort\.lua:[0-9]+: .*C stack overflow
-- C stack overflow through table.sort comparators, in a task: the
-- message names the file and line.
scenario{ name = "c_stack_overflow_sort" }
task{ name = "t", run = function()
  local function cmp(a, b) table.sort({ 2, 1 }, cmp) return a < b end
  table.sort({ 2, 1 }, cmp)
end }
