-- expect-exit: 2
-- expect-stderr: handle_close_variable\.lua:7: variable 'g' got a non-closable value
-- A handle as a to-be-closed variable: it has no __close, so Lua refuses.
scenario{ name = "handle_close_variable" }
local l = lock{ name = "l" }
do
  local g <close> = l
end
