-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: instruction budget of 1000000 exceeded
-- 20,000 tasks of about 500 instructions each, all alive at once (each
-- sleeps before it ends, so no thread is reused): the budget hook fires
-- every 1000 instructions of a thread, so none of them was ever charged
-- (millions of loop iterations ran under a budget of one million
-- instructions).  FIXED: a thread's first periods are short, and a thread
-- that finishes is charged the rest of its period.
scenario{ name = "budget_many_short_tasks", cpus = 1 }
for i = 1, 20000 do
  task{ name = "t" .. i, run = function()
    local x = 0
    for j = 1, 120 do x = x + j end
    sleep(1000)
  end }
end
