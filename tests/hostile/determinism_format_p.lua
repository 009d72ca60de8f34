-- expect-exit: 2
-- expect-stderr: determinism_format_p\.lua:7: .*'%p' prints an address
-- string.format("%p") prints an address, which changes from run to run:
-- refused, with the line.  FIXED (it printed the address).
scenario{ name = "format_p" }
task{ name = "t", run = function()
  local s = string.format("%p", {})
  compute(#s)
end }
