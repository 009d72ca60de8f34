-- expect-exit: 0
-- args: --cpus 2 --era 2023 --report json
-- expect-stdout: "outcome": "completed"
-- expect-stdout: "ok": true
-- Legitimately different: Lua 5.4 can yield from a __close metamethod, so
-- a to-be-closed variable may release *and* take locks -- the kernel's
-- guard()/scoped_guard idiom (linux/cleanup.h).  Here the guard's __close
-- does up() on normal exit and on an error unwinding through pcall, and a
-- second __close waits (down() under contention) while an error unwinds.
scenario{ name = "wait_in_close_handler" }
local l = lock{ name = "l", kind = "mutex" }
local m = lock{ name = "m" }
local function guard(lk)
  down(lk)
  return setmetatable({}, { __close = function() up(lk) end })
end
local reached = 0
task{ name = "holder", run = function() down(m); compute(ms(1)); up(m) end }
task{ name = "t", run = function()
  compute(us(10))
  for i = 1, 3 do
    local g <close> = guard(l)
    compute(us(1))
  end
  local ok = pcall(function()
    local g <close> = guard(l)
    local w <close> = setmetatable({}, { __close = function() down(m); up(m); reached = now() end })
    error("unwind")
  end)
  compute(us(1))
end }
check(function() return reached >= ms(1), "__close waited for the holder" end)
