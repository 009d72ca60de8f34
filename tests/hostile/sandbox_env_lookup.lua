-- expect-exit: 2
-- expect-stderr: sandbox_env_lookup\.lua:9: attempt to index a nil value \(local 'lib'\)
-- Every way of naming a library: _ENV, _G, rawget, a load()ed chunk with
-- _G as its environment.  All nil.
scenario{ name = "sandbox_env_lookup" }
local lib = _ENV["i" .. "o"] or _G.os or rawget(_G, "debug") or rawget(_G, "package")
  or load("return io or os or debug or package", "x", "t", _G)()
  or rawget(_G, "coroutine") or rawget(_G, "loadstring") or rawget(_G, "getfenv")
lib.open("/etc/passwd")
