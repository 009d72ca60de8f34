-- Challenge 5 -- the lost wake-up of sleep_on() (2.4).
--
-- GOAL: lose the wake-up.  Make the disk interrupt, on the other CPU, set
-- the flag and call wake_up() after the reader has tested the flag but
-- before sleep_on() has put it on the wait queue: nobody will ever wake
-- it again (the run ends in a deadlock, exit status 3; the goal check
-- fails).
--
--     if (!bh->b_uptodate)             /* the test ...                    */
--             sleep_on(&bh->b_wait);  /* ... and the sleep, not atomic   */
--
-- On 0.01's single CPU the idiom was safe only inside cli()...sti(): the
-- interrupt could not come between the test and the sleep.  On SMP, with
-- the interrupt on another CPU, nothing closes that window.  Almost every
-- caller of sleep_on() was wrong in this way; wait_event() closes it by
-- putting the task on the queue *before* testing the condition, so a
-- wake_up() in between makes it run again.  The sleep_on() family was
-- finally removed in 3.15 (2014).  --set fixed=true uses wait_event():
-- no timing reaches the goal.
--
-- The timing is fixed: the interrupt fires once at `irq_at` (ns).  By
-- default the reader is already asleep then, and the wake-up finds it.
-- Solution:  --set irq_at=9800
scenario{
  name = "challenge_sleep_on",
  title = "Challenge: lose the wake-up of sleep_on() (2.4, SMP)",
  description = "Goal: make the interrupt's wake_up() fall between the reader's test of the flag and its sleep_on().",
  era = "2001",
  cpus = 2,
}

local irq_at = param("irq_at", 30000)   -- when the disk interrupts, ns
local fixed  = param("fixed", false)    -- wait_event() instead of test + sleep_on()
if irq_at < 100 then                    -- it is also the interrupt's period
  error(string.format("irq_at must be at least 100 (ns), got %d", irq_at))
end

local b_wait     = waitqueue{ name = "bh->b_wait" }
local b_uptodate = var{ name = "b_uptodate" }
local wakeups = 0                       -- wake_up()s on b_wait so far

-- sleep_on(): sleep until the *next* wake_up() of the queue; one that
-- came earlier is not remembered.
local function sleep_on(wq)
  local seen = wakeups
  wait_event(wq, function() return wakeups ~= seen end)
end

-- bread(): start the read, then wait for the block, on CPU 0
task{ name = "bread", cpu = 0, start = us(5), run = function()
  compute(us(3))                        -- ll_rw_block(): start the disk
  if fixed then
    wait_event(b_wait, function() return read(b_uptodate) == 1 end)
  else
    if read(b_uptodate) == 0 then       -- if (!bh->b_uptodate)
      compute(us(1))                    --   the call, the queue's lock
      sleep_on(b_wait)                  --   sleep_on(&bh->b_wait)
    end
  end
  compute(us(2))                        -- copy the block to the user
end }

-- the disk's interrupt on CPU 1; only its first firing completes the read
local done = false
irq{ name = "ide0", cpu = 1, every = irq_at, handler = function()
  if done then return end
  done = true
  write(b_uptodate, 1)                  -- bh->b_uptodate = 1
  wakeups = wakeups + 1
  wake_up(b_wait)                       -- wake_up(&bh->b_wait)
end }

-- The goal check: it FAILS when the goal is reached.
check(function(r)
  if r.outcome == "deadlock" then
    return false, "goal reached: the wake-up was lost; bread sleeps forever on bh->b_wait"
  end
  return true, "goal not reached: bread got its block (outcome " .. r.outcome .. ")"
end)
