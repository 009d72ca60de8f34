-- expect-exit: 2
-- expect-stderr: error_tostring_loop\.lua:8: error raised with a table value instead of a message
-- An error object whose __tostring never returns: the host does not call
-- it (it describes the value by type), so this cannot hang the report.
scenario{ name = "error_tostring_loop" }
local bad = setmetatable({}, { __tostring = function() while true do end end })
task{ name = "t", run = function()
  error(bad)
end }
