-- expect-exit: 2
-- expect-stderr: bad_no_name\.lua:5: .*name
-- scenario{} needs a name.
local x = 1
scenario{ title = "nameless" }
