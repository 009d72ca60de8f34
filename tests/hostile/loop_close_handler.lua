-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: loop_close_handler\.lua:[0-9]+: instruction budget of 1000000 exceeded
-- A to-be-closed variable whose __close loops forever, run while the
-- budget error unwinds the block: __close runs with the hook on, so it
-- fails at once too.
scenario{ name = "loop_close_handler" }
do
  local c <close> = setmetatable({}, { __close = function() while true do end end })
  while true do end
end
