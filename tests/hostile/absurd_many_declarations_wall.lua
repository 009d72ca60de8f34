-- expect-exit: 2
-- args: --max-wall 2
-- expect-stderr: absurd_many_declarations_wall\.lua:9: wall-clock budget of 2 s exceeded
-- Names must be unique, and each declaration compares its name with every
-- earlier one: 200,000 variables cost ~2*10^10 comparisons, in C between
-- Lua instructions.  The wall-clock budget ends it (see
-- pending/absurd_many_locks_quadratic.lua).
scenario{ name = "absurd_many_declarations_wall" }
for i = 1, 200000 do var{ name = "v" .. i } end
