-- expect-exit: 2
-- expect-stderr: wait_in_load_reader\.lua:8: down\(\) cannot wait here
-- A load() reader function that tries to wait: load() catches the reader's
-- error and returns it; assert() raises it.
scenario{ name = "wait_in_load_reader" }
local l = lock{ name = "l" }
task{ name = "t", run = function()
  assert(load(function() down(l) end))
end }
