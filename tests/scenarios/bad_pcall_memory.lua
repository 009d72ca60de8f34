-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: bad_pcall_memory\.lua:[0-9]+: memory budget of 16777216 bytes exceeded
-- A task that catches its own out-of-memory error and tries again.
scenario{ name = "bad_pcall_memory" }
task{ name = "t", run = function()
  while true do
    pcall(function() local t = {} ; for i = 1, 1e9 do t[i] = i end end)
    compute(1)
  end
end }
