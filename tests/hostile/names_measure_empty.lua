-- expect-exit: 2
-- expect-stderr: names_measure_empty\.lua:5: bad argument #1 to 'measure' \(a name of 1 to 128 bytes of UTF-8\)
-- An empty measure() name.
scenario{ name = "names_measure_empty" }
task{ name = "t", run = function() measure("", function() end) end }
