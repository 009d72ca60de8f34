-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: pcall_retry_error_rethrow\.lua:[0-9]+: instruction budget of 1000000 exceeded
-- Catch the budget error and raise a different one in its place (a table,
-- so that the host cannot read it as a message): the budget's own message
-- is the one reported.
scenario{ name = "pcall_retry_error_rethrow" }
task{ name = "t", run = function()
  local ok, e = pcall(function() while true do end end)
  error({ replaced = e })
end }
