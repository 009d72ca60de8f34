-- expect-exit: 2
-- expect-stderr: names_measure_nonutf8\.lua:6: bad argument #1 to 'measure' \(a name of 1 to 128 bytes of UTF-8\)
-- A measure() name.
scenario{ name = "names_measure_nonutf8" }
task{ name = "t", run = function()
  measure("\xff", function() end)
end }
