-- expect-exit: 2
-- expect-stderr: wait_in_sort_comparator\.lua:9: down\(\) cannot wait here
-- down() from a table.sort comparator: the comparator is called from C
-- without a continuation, so the task cannot be suspended there.
scenario{ name = "wait_in_sort_comparator" }
local l = lock{ name = "l" }
task{ name = "t", run = function()
  table.sort({ 3, 2, 1 }, function(a, b)
    down(l)
    return a < b
  end)
end }
