-- expect-exit: 2
-- expect-stderr: error_measure_table\.lua:5: error raised with a table value instead of a message
-- A table raised through measure() (a C function with a continuation).
scenario{ name = "error_measure_table" }
task{ name = "t", run = function() measure("m", function() error({}) end) end }
