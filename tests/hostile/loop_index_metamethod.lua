-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: loop_index_metamethod\.lua:10: instruction budget of 1000000 exceeded
-- A declaration table whose __index loops: the declaration reads its
-- fields with lua_getfield, which runs the metamethod -- still Lua code,
-- still counted.
scenario{ name = "loop_index_metamethod" }
local fields = setmetatable({ name = "l" }, {
  __index = function(t, k)
    while true do end
  end,
})
local l = lock(fields)
