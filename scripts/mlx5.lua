-- 2022: a semaphore keeps half the firmware's mailboxes free.
--
-- A ConnectX NIC (driver mlx5) is configured through firmware commands.  The
-- driver writes a command into one of 32 slots of a mailbox in host memory,
-- rings a doorbell, and the firmware answers by an interrupt on the command
-- event queue.  With log_sz = 5 there are 31 "regular" slots; the 32nd is
-- kept for MANAGE_PAGES, the firmware asking the driver for memory.  The
-- regular slots are a textbook counting semaphore (cmd_work_handler(), run
-- from the command work queue):
--
--     sema_init(&cmd->sem, cmd->max_reg_cmds);      /* 31 */
--     down(&cmd->sem);  then the first free bit of the slot bitmask
--     ... fill the descriptor, ring the doorbell, wait for ent->done ...
--     the last cmd_ent_put(): free the slot, up(&cmd->sem)
--
-- A page command is different on every step: mlx5_cmd_invoke() runs its
-- handler directly in the caller instead of queueing it, the handler takes
-- pages_sem (a semaphore of 1) instead of cmd->sem, and the command always
-- uses the reserved last slot (index max_reg_cmds).  A page command with a
-- callback is refused (-EINVAL): it must sleep.
--
-- TLS offload (kTLS) makes per-connection objects in the NIC with
-- CREATE/MODIFY/QUERY/DESTROY_GENERAL_OBJECT.  At a high connection rate
-- these commands arrive faster than the firmware executes them.  Every slot
-- fills with them and a queue of them forms on cmd->sem; the semaphore is
-- fair (first come, first served), so a critical control command -- a
-- vport or link change, a health query -- joins the end of that queue and
-- waits for every TLS command ahead of it to go through the firmware.
--
-- Commit 63fbae0a74c3 (Tariq Toukan, August 2022) put a second semaphore in
-- front of the first, for those four opcodes only, in cmd_exec():
--
--     sema_init(&cmd->throttle_sem, DIV_ROUND_UP(cmd->max_reg_cmds, 2));
--     if the opcode is one of the four:
--             with a callback (atomic context, may not sleep): -EINVAL
--             else down(&dev->cmd.throttle_sem), up() on every exit path
--
-- At most 16 TLS commands now hold slots; the other 15 are always there for
-- everything else.  The TLS backlog waits on throttle_sem, where a critical
-- command never queues.  And the TLS rate does not drop, the commit says:
-- half the slots are enough to keep the firmware at its own maximal rate,
-- which is the real bound, not the number of slots.  MANAGE_PAGES is not a
-- throttled opcode and never takes throttle_sem.
--
-- The model.  The firmware has `engines` internal workers and executes the
-- commands whose doorbells it has seen in order, each taking about
-- `fw_general_us` (TLS objects) or `fw_critical_us` (control and page
-- commands), +-25%.  So its rate is bounded by engines / fw_general_us
-- (8 / 100 us = 80,000 commands/s by default; an estimate, the commit gives
-- no figure).  The command EQ interrupt is a periodic source every `eq_us`
-- that completes what the firmware has finished (the engine has no one-shot
-- interrupts); the woken caller frees the slot and up()s its semaphore.
-- `tasks` kernel threads set up and tear down TLS connections, offering
-- `rate` general-object commands per second in all; `critical` threads each
-- issue a control command every `critical_us`; `pages` threads each answer a
-- firmware page request every `pages_us`; `async` threads each issue a
-- general-object command with a callback every `async_us` (refused with the
-- throttle; without it, run by a worker while the caller goes on).  Every
-- other caller sleeps until its command completes.  In the kernel cmd->sem
-- is taken by a single-threaded workqueue on the caller's behalf; the order
-- is the same first-come first-served, so the model takes it in the caller.
-- The page-request and callback loads are estimates (E): no figure for
-- them is published.
--
-- Try (figures with the defaults, regenerate with the commands of
-- docs/reproductions/mlx5.md; control-command p99 and TLS throughput):
--   (defaults)              the throttle on: cmd->sem never waited for
--   --set throttle=false    every control command waits behind the whole
--                           TLS backlog, and the TLS rate hardly moves
--   --set tasks=256         twice the backlog: twice the wait without the
--                           throttle, the same with it
--   --set slots=63          32 TLS slots: a deeper queue in the firmware
--   --set slots=15          8 TLS slots for 8 engines: no slack left, the
--                           TLS rate falls and a check fails
--   --set rate=40000        under the firmware's rate there is no backlog
--   --set engines=16        a firmware as wide as the throttle: the claim
--                           no longer holds, the TLS rate falls

scenario{
  name = "mlx5",
  title = "2022: mlx5 throttles general-object firmware commands",
  era = "2022",
  seed = 2022,
}

local throttle    = param("throttle", true)  -- commit 63fbae0a74c3
local slots       = param("slots", 31)       -- max_reg_cmds = (1 << log_sz) - 1
local rate        = param("rate", 160000)    -- general-object commands/s offered
local ntasks      = param("tasks", 128)      -- threads issuing TLS object commands
local ncrit       = param("critical", 4)     -- threads issuing control commands
local crit_us     = param("critical_us", 1000) -- each one's period
local engines     = param("engines", 8)      -- firmware workers (estimate)
local fw_gen_us   = param("fw_general_us", 100) -- firmware time, general object
local fw_crit_us  = param("fw_critical_us", 50) -- firmware time, control command
local eq_us       = param("eq_us", 4)        -- command EQ interrupt period
local npages      = param("pages", 1)        -- threads answering page requests (E)
local pages_us    = param("pages_us", 1000)  -- each one's period (E)
local nasync      = param("async", 1)        -- threads issuing throttled opcodes with a callback (E)
local async_us    = param("async_us", 1000)  -- each one's period (E)
local run_ms      = param("run_ms", 100)     -- how long the flood lasts
local warm_ms     = 10                       -- the flood builds up first

local units = (slots + 1) // 2               -- DIV_ROUND_UP(max_reg_cmds, 2)

local cmd_sem      = lock{ name = "cmd->sem", kind = "semaphore", count = slots }
local throttle_sem = lock{ name = "cmd->throttle_sem", kind = "semaphore", count = units }
local pages_sem    = lock{ name = "cmd->pages_sem", kind = "semaphore", count = 1 }
local PAGE_SLOT    = slots + 1               -- ent->idx = cmd->max_reg_cmds

-- ent->done, one per slot (the reserved one last): the EQ interrupt completes it.
local ent_done = {}
for i = 1, PAGE_SLOT do
  ent_done[i] = completion{ name = "ent_done/" .. i }
end

local busy_slots  = counter{ name = "slots_busy", unit = "slots" }
local gen_slots   = counter{ name = "general_in_slots", unit = "slots" }
local gen_window  = counter{ name = "general_done_window", unit = "commands" }
local crit_issued = counter{ name = "critical_issued", unit = "commands" }
local crit_done   = counter{ name = "critical_done", unit = "commands" }
local pages_issued = counter{ name = "pages_issued", unit = "commands" }
local pages_done  = counter{ name = "pages_done", unit = "commands" }
local async_issued = counter{ name = "async_issued", unit = "commands" }
local async_einval = counter{ name = "async_einval", unit = "commands" }
local async_done  = counter{ name = "async_done", unit = "commands" }

local WARM, STOP = ms(warm_ms), ms(warm_ms + run_ms)

-- ---------------------------------------------------------------------------
-- The firmware: bookkeeping only, it runs on the NIC, not on a CPU.  A
-- command whose doorbell rings at `now` goes to the engine that frees first.
local engine_free = {}
for e = 1, engines do engine_free[e] = 0 end

local function fw_doorbell(cost_us)
  local best = 1
  for e = 2, engines do
    if engine_free[e] < engine_free[best] then best = e end
  end
  local base = us(cost_us)
  local cost = base + rand(0, base // 2) - base // 4
  local start = math.max(now(), engine_free[best])
  engine_free[best] = start + cost
  return start + cost
end

-- The slots: a bitmask in the driver, entries the interrupt looks at.
local free_slot = {}
for i = 1, slots do free_slot[i] = true end
local inflight = {}   -- slot -> { done = firmware completion time }

-- mlx5_cmd_comp_handler(), from the command EQ interrupt.
irq{
  name = "cmd_eq", cpu = 0, every = us(eq_us),
  handler = function()
    local t = now()
    for i = 1, PAGE_SLOT do
      local e = inflight[i]
      if e and not e.signalled and e.done <= t then
        e.signalled = true
        compute(ns(300))              -- copy the outbox, check the signature
        complete(ent_done[i])
      end
    end
  end,
}

-- cmd_exec() with the work handler folded in.  kind: "general" (a
-- throttled opcode), "critical" or "pages" (MANAGE_PAGES).  Returns nil, or
-- the errno's name.
local function cmd_exec(kind, cost_us, callback)
  local throttled = kind == "general" and throttle
  if throttled then
    if callback then return "EINVAL" end       -- atomic context may not sleep
    down(throttle_sem)
  end
  compute(ns(800))                    -- alloc_msg(), copy the inbox
  local idx
  if kind == "pages" then
    -- page_queue: the handler runs here, not from the work queue; it takes
    -- pages_sem and the reserved slot, never cmd->sem
    measure("pages_slot", function() down(pages_sem) end)
    idx = PAGE_SLOT
  else
    local function take_slot() down(cmd_sem) end
    if kind == "general" then take_slot() else measure("critical_slot", take_slot) end
    for i = 1, slots do
      if free_slot[i] then idx = i; break end
    end
    assert(idx, "cmd->sem let us in but no slot is free")
    free_slot[idx] = false
    counter_add(busy_slots, 1)
    if kind == "general" then counter_add(gen_slots, 1) end
  end
  compute(ns(500))                    -- descriptor, signature, doorbell
  inflight[idx] = { done = fw_doorbell(cost_us) }
  wait_for_completion(ent_done[idx])
  inflight[idx] = nil                 -- the caller's cmd_ent_put() is the last:
  if kind == "pages" then             -- cmd_free_index(), then up() of its semaphore
    up(pages_sem)
  else
    free_slot[idx] = true
    counter_add(busy_slots, -1)
    if kind == "general" then counter_add(gen_slots, -1) end
    up(cmd_sem)
  end
  compute(ns(500))                    -- copy the output, free the messages
  if throttled then up(throttle_sem) end
  return nil, idx
end

-- TLS connection setup and teardown: CREATE/DESTROY_GENERAL_OBJECT for the
-- key and the offload context, an occasional MODIFY or QUERY (the model
-- gives them all one firmware cost).  Each thread offers rate/tasks commands
-- per second, and waits for each.
local interval = sec(1) * ntasks // math.max(rate, 1)
for i = 1, ntasks do
  task{
    name = "ktls/" .. i,
    run = function()
      local next_at = rand(0, interval)
      while true do
        if now() < next_at then sleep(next_at - now()) end
        if now() >= STOP then break end
        measure("general", function() cmd_exec("general", fw_gen_us) end)
        if now() >= WARM and now() < STOP then counter_add(gen_window, 1) end
        next_at = next_at + interval // 2 + rand(0, interval)
      end
    end,
  }
end

-- Control paths: link state, vport context, health and counters.
for i = 1, ncrit do
  task{
    name = "ctrl/" .. i,
    start = WARM + us(crit_us) * (i - 1) // ncrit,
    run = function()
      while now() < STOP do
        counter_add(crit_issued, 1)
        measure("critical", function() cmd_exec("critical", fw_crit_us) end)
        counter_add(crit_done, 1)
        sleep(us(crit_us // 2) + rand(0, us(crit_us)))
      end
    end,
  }
end

local page_slots = {}        -- the slots page commands used
-- The firmware's page requests: the pages work answers each one with a
-- MANAGE_PAGES command (the model gives it a control command's cost).
for i = 1, npages do
  task{
    name = "pages/" .. i,
    start = WARM + us(pages_us) * (i - 1) // math.max(npages, 1) + us(pages_us) // 3,
    run = function()
      while now() < STOP do
        counter_add(pages_issued, 1)
        measure("pages", function()
          local _, idx = cmd_exec("pages", fw_crit_us)
          page_slots[idx] = true
        end)
        counter_add(pages_done, 1)
        sleep(us(pages_us // 2) + rand(0, us(pages_us)))
      end
    end,
  }
end

-- Callers in atomic context: a throttled opcode with a callback.  With the
-- throttle, cmd_exec() refuses it at once; without it, the command is
-- queued and the caller goes on (here a worker runs it; the callback is
-- its completion).
for i = 1, nasync do
  task{
    name = "async/" .. i,
    start = WARM + us(async_us) * (i - 1) // math.max(nasync, 1) + us(async_us) * 2 // 3,
    run = function()
      while now() < STOP do
        counter_add(async_issued, 1)
        if throttle then
          local err = cmd_exec("general", fw_gen_us, true)
          if err == "EINVAL" then counter_add(async_einval, 1) end
        else
          spawn{ name = "async/" .. i .. "/work", run = function()
            cmd_exec("general", fw_gen_us)
            counter_add(async_done, 1)
          end }
        end
        sleep(us(async_us // 2) + rand(0, us(async_us)))
      end
    end,
  }
end

-- ---------------------------------------------------------------------------
-- The lesson, for the default configuration (throttle on).

local fw_rate = engines * 1e6 / fw_gen_us            -- commands/s, the bound

check(function(r)
  return #r.violations == 0 and r.outcome == "completed",
    string.format("run %s, %d violations", r.outcome, #r.violations)
end)

-- Nobody starves: every control command issued came back.
check(function(r)
  local issued = r.counters.critical_issued.value
  local done = r.counters.critical_done.value
  return issued > 0 and issued == done,
    string.format("%d of %d critical commands completed", done, issued)
end)

-- MANAGE_PAGES has a path of its own: pages_sem and the reserved last slot,
-- never cmd->sem or throttle_sem, so page requests are answered however
-- full the regular slots are.
check(function(r)
  local issued, done = r.counters.pages_issued.value, r.counters.pages_done.value
  if npages == 0 then return true, "no page requests (--set pages=0)" end
  local used = {}
  for idx in pairs(page_slots) do used[#used + 1] = idx end
  table.sort(used)
  local p = r.ops.pages or { p99_ns = 0, max_ns = 0 }
  local w = r.ops.pages_slot or { max_ns = 0 }
  return issued > 0 and issued == done and #used == 1 and used[1] == PAGE_SLOT,
    string.format("MANAGE_PAGES: %d of %d completed, through pages_sem (waited up to "
      .. "%.1f us) into slot %s of %d, the reserved one; p99 %.0f us, max %.0f us",
      done, issued, w.max_ns / 1e3, table.concat(used, ","), PAGE_SLOT,
      p.p99_ns / 1e3, p.max_ns / 1e3)
end)

-- A throttled opcode with a callback comes from atomic context, which may
-- not sleep in down(throttle_sem): with the throttle it is refused.
check(function(r)
  local issued = r.counters.async_issued.value
  local einval = r.counters.async_einval.value
  if throttle then
    return einval == issued, string.format("throttled opcodes with a callback: %d of %d "
      .. "refused with -EINVAL", einval, issued)
  end
  return einval == 0, string.format("throttled opcodes with a callback: %d issued, %d "
    .. "run by the work queue (no throttle, nothing refused)", issued,
    r.counters.async_done.value)
end)

-- With the throttle at most `units` TLS commands hold slots, and with the
-- control commands that is fewer than `slots`: cmd->sem never has a waiter,
-- and a control command never waits for a slot.
check(function(r)
  local sem
  for _, l in ipairs(r.locks) do
    if l.name == "cmd->sem" then sem = l end
  end
  local s = r.ops.critical_slot or { max_ns = 0 }
  return sem.contentions == 0, string.format("cmd->sem contended %d times (up to %d "
    .. "waiters); critical commands waited for a slot up to %.1f us; TLS commands "
    .. "held up to %d of %d slots%s", sem.contentions, sem.max_waiters, s.max_ns / 1e3,
    r.counters.general_in_slots.peak, slots,
    throttle and string.format(" (throttle_sem %d)", units) or " (no throttle)")
end)

-- And in the firmware a control command can find at most `units` TLS
-- commands and the other control commands ahead of it: a few rounds of the
-- engines.  Without the throttle it finds the whole TLS backlog.
check(function(r)
  local c = r.ops.critical
  if not c then return false, "no critical command was measured" end
  local ahead = units + ncrit - 1 + npages
  local rounds = (ahead + engines - 1) // engines
  local bound = rounds * us(fw_gen_us) * 5 // 4 + us(fw_crit_us) * 5 // 4
                + us(eq_us) + us(30)           -- + interrupt period, wake-ups
  return c.p99_ns <= bound, string.format("critical p50 %.0f us, p99 %.0f us, max %.0f us; "
    .. "bound %.0f us (%d firmware rounds of %d us + %d us)", c.p50_ns / 1e3,
    c.p99_ns / 1e3, c.max_ns / 1e3, bound / 1e3, rounds, fw_gen_us * 5 // 4,
    fw_crit_us * 5 // 4)
end)

-- Half the slots still keep the firmware busy: the TLS rate is the
-- firmware's rate (or the offered rate, if lower), within 10%.
check(function(r)
  local got = r.counters.general_done_window.value / (run_ms / 1e3)
  local want = math.min(rate, fw_rate)
  return got >= 0.9 * want, string.format("general-object throughput %.1f k/s "
    .. "(offered %.1f k/s, firmware bound %.1f k/s)", got / 1e3, rate / 1e3,
    fw_rate / 1e3)
end)
