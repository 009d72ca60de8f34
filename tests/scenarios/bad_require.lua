-- expect-exit: 2
-- expect-stderr: bad_require\.lua:5: attempt to call a nil value \(global 'require'\)
-- No require.
scenario{ name = "bad_require" }
local socket = require("socket")
