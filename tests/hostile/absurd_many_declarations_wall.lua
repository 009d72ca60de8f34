-- expect-exit: 0
-- args: --max-wall 30
-- expect-stdout: outcome: completed
-- Names must be unique.  Each declaration used to compare its name with
-- every earlier one (200,000 variables: ~2*10^10 comparisons, in C, out
-- of the instruction budget's sight); a table of names per type makes
-- it one lookup, and 200,000 declarations take about a second (the budget here leaves
-- room for sanitizers on a loaded machine: quadratic would take hours).
scenario{ name = "absurd_many_declarations_wall" }
for i = 1, 200000 do var{ name = "v" .. i } end
