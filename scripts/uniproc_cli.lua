-- The museum's first exhibit: 1991, Linux 0.01 on one 386, no preemption.
--
-- A tty input buffer is shared by two kinds of code:
--   * the keyboard interrupt, which puts each character typed into the
--     buffer and wakes up whoever sleeps on the tty's wait queue;
--   * reader tasks (shells, say) that take the characters out.
--
-- Kernel code in 0.01 is never preempted: a task keeps the CPU until it
-- sleeps.  So the only thing that can cut into a reader is the interrupt,
-- and the whole locking discipline is cli()/sti().  0.01's tty_read() did
--
--     cli();
--     while (EMPTY(tty->secondary))
--             sleep_on(&tty->secondary.proc_list);
--     ... take the characters ...
--     sti();
--
-- cli() closes two windows at once:
--   1. between testing "is the buffer empty?" and going to sleep: an
--      interrupt landing there would deliver its wake_up() to nobody;
--   2. between reading the buffer's count and writing it back: an
--      interrupt adding a character there would have its update lost.
-- sleep_on() with interrupts off is fine here: the interrupt flag belongs
-- to the task (schedule() switches EFLAGS), so the keyboard gets in while
-- the reader sleeps.
--
-- Try the variants:
--   --set protect=false         no cli(): lost updates, characters vanish
--                               and the readers wait forever for them
--   --era 2003 --cpus 2 --mode cli --anachronism
--                               cli() only masks the local CPU on SMP after
--                               2.5.28, and sleeping with interrupts off
--                               is now a bug ("scheduling while atomic")
--   --mode semaphore --anachronism
--                               a semaphore keeps readers apart but not the
--                               interrupt: lost updates again

scenario{
  name = "uniproc_cli",
  title = "1991: cli()/sti() guard the tty buffer from the keyboard interrupt",
  era = "1991",
  cpus = 1,
  seed = 1991,
  duration = sec(5),   -- ~0.4 s is enough; a broken variant stops here
}

local chars   = param("chars", 200)     -- characters typed in total
local readers = param("readers", 2)     -- reader tasks
local protect = param("protect", true)  -- false: the reader forgets cli()

-- cli()/sti() as a lock: down() is cli(), up() is sti() on 0.01.
local tty_lock  = lock{ name = "tty_cli", kind = "cli" }
local buffered  = var{ name = "buffer_count" }    -- characters in the buffer
local typed     = var{ name = "chars_typed" }     -- written by the interrupt only
local consumed  = var{ name = "chars_read" }      -- written by readers, under cli
local tty_wait  = waitqueue{ name = "tty_wait" }  -- secondary.proc_list
local backlog   = counter{ name = "buffer_fill", unit = "chars" }

-- The keyboard: a keystroke every ~2 ms (a key-repeat burst, to keep the
-- exhibit short).  The handler is the only writer of chars_typed.
irq{
  name = "keyboard", cpu = 0, every = ms(2), jitter = ms(1),
  handler = function()
    if read(typed) >= chars then return end
    add(typed, 1)
    compute(us(20))                 -- read the scancode, translate it
    add(buffered, 1)                -- put it in the buffer
    counter_add(backlog, 1)
    wake_up(tty_wait)
  end,
}

local function cli() if protect then down(tty_lock) end end
local function sti() if protect then up(tty_lock) end end

local function empty_and_typing()
  return read(buffered) == 0 and read(consumed) < chars
end

for i = 1, readers do
  task{
    name = "sh/" .. i,
    start = us(100 * (i - 1)),
    run = function()
      while true do
        cli()
        -- the window cli() closes: test, then sleep
        wait_event(tty_wait, function() return not empty_and_typing() end)
        local n = read(buffered)
        if n == 0 then              -- everything has been typed and read
          sti()
          wake_up(tty_wait)         -- let the other readers see it too
          break
        end
        local take = math.min(n, 8)
        compute(us(40) * take)      -- copy to user space, put_fs_byte()
        write(buffered, n - take)   -- the read-modify-write cli() protects
        counter_add(backlog, -take)
        write(consumed, read(consumed) + take)
        sti()
        log("%s read %d char%s, %d left in the buffer", current().name, take,
            take == 1 and "" or "s", n - take)
        compute(us(300))            -- the shell does something with it...
        sleep(ms(5))                -- ...and waits for the console to echo it
      end
    end,
  }
end

check(function(r)
  local lost = r.violation_counts and r.violation_counts["lost-update"] or 0
  return lost == 0, string.format("no lost updates on the tty buffer (%d found)", lost)
end)

check(function(r)
  return r.vars.chars_read == chars and r.vars.chars_typed == chars,
    string.format("every character typed was read: %d typed, %d read (of %d)",
                  r.vars.chars_typed, r.vars.chars_read, chars)
end)

check(function(r)
  return r.vars.buffer_count == 0,
    string.format("the buffer ends empty (buffer_count = %d)", r.vars.buffer_count)
end)

check(function(r)
  local done = 0
  for _, t in ipairs(r.tasks) do if t.finished then done = done + 1 end end
  return done == readers, string.format("%d of %d readers finished", done, readers)
end)

-- Not a pass/fail lesson, a number to look at: how long interrupts were held
-- off, and how many keystrokes had to wait for sti().
check(function(r)
  local off, total = 0, 0
  for _, c in ipairs(r.cpus_util) do
    off = off + c.irqoff_ns
    total = total + r.sim_time_ns
  end
  local coalesced = 0
  for _, q in ipairs(r.irqs or {}) do coalesced = coalesced + q.coalesced end
  return true, string.format("interrupts were off %.1f%% of the time; peak backlog %d chars; "
    .. "%d keystrokes merged while latched", total > 0 and 100 * off / total or 0,
    r.counters.buffer_fill.peak, coalesced)
end)
