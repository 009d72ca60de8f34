-- expect-exit: 2
-- expect-stderr: wait_in_gsub_callback\.lua:7: sleep\(\) cannot wait here
-- sleep() from a string.gsub callback.
scenario{ name = "wait_in_gsub_callback" }
task{ name = "t", run = function()
  string.gsub("abc", ".", function(c)
    sleep(us(1))
  end)
end }
