-- expect-exit: 2
-- expect-stderr: message_names_other_file_task\.lua:9: /etc/passwd:1: syntax error$
-- The same in a task, where the line was missing ("FILE: /etc/passwd:1:
-- syntax error").  FIXED.
scenario{ name = "message_names_other_file_task" }
task{ name = "t", run = function()
  compute(10)
  local f = function() end
  error("/etc/passwd:1: syntax error", 0)
end }
