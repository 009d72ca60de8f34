-- 1992: the first semaphores, inside the SCSI layer.
--
-- Linux 0.96 (May 1992) brought SCSI support, and with it the first thing
-- in the kernel called a semaphore.  The mid-level driver kept one per host
-- adapter ("our semaphore array" in hosts.h of mid-1992: host_busy[]) so
-- that the disk, tape and CD-ROM drivers never talked to one controller at
-- the same time.  A binary semaphore, used as a lock: count 1, one command
-- on the controller at a time.
--
-- The odd part is who gives it back.  The command runs on the controller,
-- not on the CPU; when it is done the controller raises an interrupt, and
-- the completion path -- scsi_done(), called from the adapter's interrupt
-- handler -- marks the host free again.  The "lock" is released in
-- interrupt context, by code that never took it.
--
-- And the issuer has to wait for its command somehow.  Once general
-- semaphores existed (0.99.15c, 1994), the SCSI drivers of the 1.x-2.4
-- kernels wrote it as
--
--     struct semaphore sem = MUTEX_LOCKED;    /* count 0: unavailable */
--     SCpnt->request.sem = &sem;
--     scsi_do_cmd(SCpnt, cmnd, buffer, len, done, timeout, retries);
--     down(&sem);                             /* sleep until ...      */
--
-- and the done() routine, again in the interrupt, called up(req->sem).
-- This is not mutual exclusion at all: it is "wait for an event", spelled
-- with a semaphore that starts locked.  (2.4.7 gave the idiom its own
-- primitive, the completion.)  The 1992 code itself still busy-waited on
-- flags for both jobs; the exhibit stages the pattern with the semaphores
-- the SCSI layer is remembered for, in the 1992 era: one CPU, no
-- preemption, a 486.
--
-- The model: `tasks` issuers (sd, st, sr...) share `hosts` controllers
-- round-robin; each issues `commands` commands (per task).  A command takes
-- the host semaphore, programs the controller, and sleeps on its own
-- MUTEX_LOCKED semaphore.  Each controller has a periodic interrupt
-- (every `poll_us`) whose handler looks whether the command in flight has
-- finished (its completion time is in a variable); if so it frees the host
-- and up()s the issuer's semaphore.  The real controller raised its line
-- only when a command ended; the polling handler is the simulator's way to
-- deliver that, at most `poll_us` late.
--
-- The lesson, in 2006 terms: mutexes arrived, and since most semaphores
-- were binary, most could become mutexes.  But a mutex has an owner, is
-- released only by that owner, and never from an interrupt.  A binary
-- semaphore that one task downs and the same task ups is a lock and
-- converts by search and replace.  The host semaphore as 1992 used it, and
-- every MUTEX_LOCKED completion semaphore, are released by an interrupt on
-- someone else's behalf: they look the same in the source (count 1 or 0,
-- down, up) and break both rules.  Telling the two apart takes reading
-- who calls up(), which is why the conversion could not be mechanical.
--
-- Measured with the defaults (1992, one CPU, 2 hosts, 4 tasks, 20 commands
-- each, commands of 2-12 ms):
--   native (semaphores)   80 commands, no violation; 160 up()s from the
--                         interrupt; command latency p50 ~13 ms, p99 ~23 ms
--                         (waiting for the other issuer on the same host)
--   --mode mutex --era 2006
--                         exit 1: 160 mutex-unlock-in-irq, 80 on the host
--                         semaphores and 80 on the completion semaphores
--   --mode mutex --era 2006 --set host_release=issuer
--                         the issuer frees the host itself once its command
--                         is done: the host semaphore is now a plain lock
--                         and converts cleanly; the 80 completion
--                         semaphores still do not
--
-- Try also:  --set hosts=1   four issuers queue on one controller: p50 29 ms
--            --mode semaphore --era 2006   the same code on 8 CPUs: clean

scenario{
  name = "scsi_host",
  title = "1992: the SCSI host semaphore, released by the completion interrupt",
  era = "1992",
  seed = 1992,
  duration = sec(60),   -- ~0.6 s with the defaults
}

local nhosts       = param("hosts", 2)          -- host adapters, one irq each
local ntasks       = param("tasks", 4)          -- issuers, spread over the hosts
local commands     = param("commands", 20)      -- commands PER TASK
local cmd_min_us   = param("cmd_min_us", 2000)  -- a command's time on the
local cmd_max_us   = param("cmd_max_us", 12000) --   controller (seek + transfer)
local poll_us      = param("poll_us", 500)      -- controller irq period
local host_release = param("host_release", "irq") -- "irq": scsi_done() frees the
                                                -- host (1992); "issuer": the
                                                -- issuer frees it after down()

assert(nhosts >= 1 and ntasks >= 1 and commands >= 0, "need hosts >= 1, tasks >= 1, commands >= 0")
assert(cmd_min_us >= 0 and cmd_max_us >= cmd_min_us and poll_us > 0, "bad command or poll times")
assert(host_release == "irq" or host_release == "issuer",
       "host_release must be \"irq\" or \"issuer\"")

local drivers = { "sd", "st", "sr" }            -- disk, tape, CD-ROM

-- Per host: the host semaphore (a binary semaphore, count 1), the command in
-- flight (who issued it, when the controller will be done with it), and a
-- count of commands on the controller, to check the serialisation.
local host, busy_until, issuer, inflight = {}, {}, {}, {}
for h = 1, nhosts do
  host[h]       = lock{ name = "host/" .. (h - 1), count = 1, kind = "semaphore" }
  busy_until[h] = var{ name = "busy_until/" .. (h - 1) }   -- 0: nothing in flight
  issuer[h]     = var{ name = "issuer/" .. (h - 1) }
  inflight[h]   = atomic{ name = "inflight/" .. (h - 1) }
end

-- Per issuer: its MUTEX_LOCKED semaphore.  The kernel put a fresh one on
-- the stack for every command; one per task, reused, behaves the same
-- (every down() is matched by exactly one up()).
local cmd_done = {}
for i = 1, ntasks do
  cmd_done[i] = lock{ name = "cmd_done/" .. i, count = 0, kind = "semaphore" }
end

local completed  = atomic{ name = "completed" }
local overlaps   = counter{ name = "overlaps", unit = "commands" }
local up_host    = counter{ name = "irq_up_host", unit = "up() calls" }   -- from the irq
local up_cmd     = counter{ name = "irq_up_cmd_done", unit = "up() calls" }
local lag        = counter{ name = "completion_lag", unit = "us" }

-- The controller's interrupt.  scsi_done(): the host is free again, then
-- the high-level driver's done(): wake the issuer.
for h = 1, nhosts do
  irq{
    name = "scsi" .. (h - 1), cpu = 0, every = us(poll_us), jitter = us(poll_us // 5),
    start = us(h * 37),
    handler = function()
      local t = read(busy_until[h])
      if t == 0 or now() < t then return end      -- not ours, or not yet
      local who = read(issuer[h])
      write(busy_until[h], 0)
      compute(us(30))                              -- read status, sense, mailbox
      atomic_dec(inflight[h])
      counter_add(lag, (now() - t) // 1000)
      if host_release == "irq" then
        up(host[h])                                -- host_busy[host] = 0
        counter_add(up_host, 1)
      end
      up(cmd_done[who])                            -- up(req->sem)
      counter_add(up_cmd, 1)
    end,
  }
end

for i = 1, ntasks do
  local h = (i - 1) % nhosts + 1
  task{
    name = drivers[(i - 1) % #drivers + 1] .. "/" .. i,
    start = us(50 * i),
    run = function()
      for k = 1, commands do
        measure("command", function()
          down(host[h])                            -- the host semaphore
          write(issuer[h], i)
          compute(us(40))                          -- build the CDB, program the adapter
          if atomic_add_return(inflight[h], 1) ~= 1 then
            counter_add(overlaps, 1)               -- two commands on one controller
          end
          write(busy_until[h], now() + us(rand(cmd_min_us, cmd_max_us)))
          down(cmd_done[i])                        -- MUTEX_LOCKED: sleep until the irq
          if host_release == "issuer" then up(host[h]) end
        end)
        atomic_inc(completed)
        compute(us(rand(50, 500)))                 -- use the data, ask for more
      end
    end,
  }
end

-- The primitive each family of locks ran as in this run (mode-dependent).
local function kind_of(r, prefix)
  for _, l in ipairs(r.locks) do
    if l.name:sub(1, #prefix) == prefix then return l.kind end
  end
  return "?"
end

check(function(r)
  local done = 0
  for _, t in ipairs(r.tasks) do if t.finished then done = done + 1 end end
  return done == ntasks and r.atomics.completed == ntasks * commands,
    string.format("every command completed: %d of %d (%d per task), %d of %d issuers finished",
                  r.atomics.completed, ntasks * commands, commands, done, ntasks)
end)

check(function(r)
  return r.counters.overlaps.value == 0,
    string.format("the host semaphore serialised each controller: %d overlapping commands",
                  r.counters.overlaps.value)
end)

-- The lesson.  Clean as semaphores; as mutexes, every up() the interrupt
-- makes is a mutex_unlock() in interrupt context.
check(function(r)
  local parts = {}
  for kind, n in pairs(r.violation_counts or {}) do
    parts[#parts + 1] = string.format("%d %s", n, kind)
  end
  table.sort(parts)
  return #r.violations == 0, string.format("no violations (%s)",
    #parts > 0 and table.concat(parts, ", ") or "none")
end)

check(function(r)
  local hk, ck = kind_of(r, "host/"), kind_of(r, "cmd_done/")
  local uh, uc = r.counters.irq_up_host.value, r.counters.irq_up_cmd_done.value
  local expected = (hk == "mutex" and uh or 0) + (ck == "mutex" and uc or 0)
  local got = (r.violation_counts or {})["mutex-unlock-in-irq"] or 0
  local msg = string.format("the interrupt released the host %d times and a MUTEX_LOCKED "
    .. "completion %d times (host locks as %s, completions as %s): ", uh, uc, hk, ck)
  if hk == "semaphore" and ck == "semaphore" then
    msg = msg .. "up() from an interrupt is legal for a semaphore"
  elseif expected == 0 then
    msg = msg .. "no mutex here"
  else
    msg = msg .. string.format("each release of a mutex is a mutex-unlock-in-irq "
      .. "(%d expected, %d reported)", expected, got)
  end
  return got == expected, msg
end)

-- Numbers to look at.
check(function(r)
  local op = r.ops.command or {}
  local n = r.atomics.completed
  local contended, taken = 0, 0
  for _, l in ipairs(r.locks) do
    if l.name:sub(1, 5) == "host/" then
      contended = contended + l.contentions
      taken = taken + l.acquisitions
    end
  end
  return true, string.format("command latency p50 %.1f ms, p99 %.1f ms, max %.1f ms; "
    .. "host semaphores taken %d times, %d contended; the irq saw a finished command "
    .. "%.0f us late on average (poll every %d us)",
    (op.p50_ns or 0) / 1e6, (op.p99_ns or 0) / 1e6, (op.max_ns or 0) / 1e6, taken, contended,
    n > 0 and r.counters.completion_lag.value / n or 0, poll_us)
end)
