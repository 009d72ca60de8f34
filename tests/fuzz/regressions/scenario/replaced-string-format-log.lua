-- expect-exit: 0
-- expect-stderr: replaced_string_format_log\.lua: top level: 1 2
-- log() looked string.format up when called: a scenario that replaced it
-- with a function returning a table made the engine pass NULL to memcpy
-- (UBSan abort), one returning a number logged the number.  FIXED: the
-- engine's own uses of library functions (log's format, the report's
-- pairs) are bound when the sandbox is built.
scenario{ name = "replaced_string_format_log" }
string.format = function() return {} end
log("top level: %d %d", 1, 2)
task{ name = "t", run = function()
  log("in a task: %s", "ok")
  compute(10)
end }
