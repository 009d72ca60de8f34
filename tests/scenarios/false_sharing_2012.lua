-- expect-exit: 0
-- args: --era 2012 --cpus 8
-- expect-stdout: ok +one line: [0-9]+ ns an increment, a line each: [0-9]+ ns
-- Two pairs of CPUs each increment two counters of their own: the first
-- pair's counters share a cache line (var{ line = }), the second's do not.
-- On the 2012 machine (a topology: every var has a line) the shared
-- line ping-pongs, a transfer each access; the separate ones stay put.
scenario{ name = "false_sharing_2012" }
local loops = 500
local pair = {
  { var{ name = "a0", line = "shared" }, var{ name = "a1", line = "shared" } },
  { var{ name = "b0" }, var{ name = "b1" } },
}
local done = { {}, {} }
for p = 1, 2 do
  for i = 1, 2 do
    task{ name = "p" .. p .. "_" .. i, cpu = (p - 1) * 4 + (i - 1) * 2,
      run = function()
        for _ = 1, loops do add(pair[p][i], 1) end
        done[p][i] = now()
      end }
  end
end
check(function(r)
  local one = math.max(done[1][1], done[1][2]) / loops
  local each = math.max(done[2][1], done[2][2]) / loops
  return one >= 50 and each <= 15 and r.vars.a0 == loops and r.vars.b1 == loops,
    string.format("one line: %.0f ns an increment, a line each: %.0f ns", one, each)
end)
