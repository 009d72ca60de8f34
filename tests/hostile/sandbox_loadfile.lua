-- expect-exit: 2
-- expect-stderr: sandbox_loadfile\.lua:5: attempt to call a nil value \(global 'loadfile'\)
-- No loadfile: a scenario reads no file but itself.
scenario{ name = "sandbox_loadfile" }
local f = loadfile("/etc/passwd")
