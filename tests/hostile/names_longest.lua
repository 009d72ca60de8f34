-- expect-exit: 0
-- args: --report json
-- expect-stdout: "outcome": "completed"
-- Legitimately accepted: names of exactly 128 bytes (the most), and a
-- 1 MB title, description and unit (free text, kept or cut short, never
-- refused); the JSON report stays one valid object.
scenario{ name = ("s"):rep(128), title = ("t"):rep(1 << 20), description = ("d"):rep(1 << 20) }
local v = var{ name = ("v"):rep(128) }
local c = counter{ name = ("c"):rep(128), unit = ("u"):rep(1 << 20) }
task{ name = ("t"):rep(128), run = function() add(v); counter_add(c, 1) end }
