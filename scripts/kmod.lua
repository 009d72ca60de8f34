-- 2017-2023: a module-loading storm at boot, the kmod limiter, and the
-- memory that duplicate loads throw away.  Two paths load modules, and
-- only one of them goes through the kmod limiter:
--
-- 1. request_module(): the kernel itself asks user space to run modprobe
--    (a driver wants a crypto algorithm, a filesystem, a protocol).  The
--    kernel has long capped how many of those run at once at 50
--    (MAX_KMOD_CONCURRENT, a "completely arbitrary value").  Its shapes:
--      before 4.13   count the callers; past min(max_threads / 2, 50) the
--                    call fails at once with -ENOMEM ("request_module:
--                    runaway loop modprobe", printed at most 5 times)
--      4.13 - 6.3    atomic_dec_if_positive() on a counter of free slots,
--                    else wait_event_killable_timeout(kmod_wq, ..., 5 * HZ);
--                    each finished modprobe does atomic_inc() + wake_up().
--                    The wait is not exclusive, so wake_up() wakes EVERY
--                    waiter, and all but one go back to sleep.  It is
--                    killable; after 5 s: -ETIME, "kmod busy with 50
--                    threads for more than 5 seconds now"
--      6.4           DEFINE_SEMAPHORE(kmod_concurrent_max, 50),
--                    down_timeout() (not killable) and up(): the same limit,
--                    FIFO, one wake-up per slot handed over
--    The load here is the kmod selftest's (tools/testing/selftests/kmod,
--    test 0008): 50 + 50 / 6 = 58 threads calling request_module() for one
--    module at once, 8 more than the limit.  --set requests=N for more.
--
-- 2. udev's finit_module() storm.  At boot systemd-udevd loads the modules
--    that match each device's modalias itself, through libkmod, calling
--    finit_module() in its worker: no modprobe, no request_module(), and
--    no limiter, in any kernel.  finit_module() reads the module file into
--    a vmalloc buffer, decompresses it into a second one, and copies it
--    into module space (layout_and_allocate()) before it looks whether a
--    module of that name is already loaded (add_unformed_module()); a
--    duplicate then sleeps there, holding all of it, until the first load
--    finishes, and fails with -EEXIST.  In October 2022 David Hildenbrand
--    reported a machine of over 400 CPUs (448 here, an inference), running a KASAN debug kernel, failing with
--    "vmap allocation for size 2498560 failed": udev asked for each CPU's
--    modules once per CPU (acpi_cpufreq 896 times, libnvdimm 409, kvm_intel
--    408 ...) and the copies filled the ~1 GiB of module space, though lsmod
--    showed ~71 modules.  With SMT off (half the CPUs) it booted.  What
--    fixed it was not a limiter:
--      6.2  (0254127ab977)  a duplicate that waited for a load that then
--                    failed gives up with -EBUSY instead of trying again
--                    (--set busy=false: before, loads of a module whose
--                    init fails, acpi_cpufreq here, ran one after another)
--      6.4  (064f4536d139)  look for the module before allocating module
--                    space (early_mod_check()): --set dedup
--      6.5  (9b9879fc0327)  concurrent finit_module() calls on one file
--                    wait for the first one and return its result, before
--                    reading anything: --set idempotent
--    Linus Torvalds's "semaphores are the classic concurrency limiter" (24
--    March 2023) answered Luis Chamberlain's plan to limit finit_module()'s
--    read the way kmod limited modprobe, by sketching a semaphore of 50
--    around it; the series posted that as a CONCURRENCY_LIMITER helper, and
--    it was never merged.  What 6.4 kept of the idea is the request_module()
--    limiter above, rewritten as the semaphore it always was.
--
-- The storm model.  Every CPU has two devices whose uevents ask for modules:
-- the cpu device (its x86cpu modalias matches a list of modules, loaded in
-- turn) and the ACPI processor device (acpi_cpufreq).  How often each
-- module is asked for per CPU comes from David's table (libnvdimm 409 of
-- 448, so 0.91 per CPU); with fewer CPUs there are proportionally fewer
-- uevents.  The 67 other modules of his table (disks, NICs, filesystems) are
-- asked for as often as it says, whatever the CPU count.  acpi_cpufreq's
-- init refuses when another cpufreq driver is registered (intel_pstate, we
-- assume), so it is never "already loaded".  Which module has which size is
-- not in the report: its two failing sizes, 2498560 and 315392 bytes, are
-- given to the big and small modules of the table.  All timings are
-- estimates for a KASAN debug kernel (that machine was 165 s into boot).
--
-- Try (448 CPUs, era 2023; figures from seed 2022, regenerate with the
-- commands of docs/reproductions/kmod.md):
--   (defaults: 6.4, semaphore, early check, -EBUSY)
--                       78 of 78 modules load; 58 request_module() calls,
--                       8 of them sleep for a slot, woken once each
--   --set dedup=false --set busy=false --set limiter=waitqueue
--                       the 2022 boot: module space fills and loads fail,
--                       "vmap allocation for size 2498560 failed"
--     ... --cpus 224    SMT off: no failure, as David found
--   --set idempotent=true   6.5: concurrent loads share the first one's
--   --set limiter=waitqueue 4.13-6.3: each up() wakes every sleeper
--   --set limiter=enomem    before 4.13: the 8 over the limit fail at once
--   --set requests=N    N request_module() calls instead of 58
--   --set storms=N      udev's whole storm N times over (as if `udevadm
--                       trigger` replayed every uevent N times within the
--                       same window), for scale; the lesson is the same

scenario{
  name = "kmod",
  title = "2017-2023: the kmod limiter and a boot-time module-loading storm",
  era = "2023",
  cpus = 448,
  seed = 2022,
  duration = sec(60),
}

-- request_module(), the kernel's path
local limiter  = param("limiter", "semaphore")  -- none | enomem | waitqueue | semaphore
local max      = param("max", 50)               -- MAX_KMOD_CONCURRENT
local requests = param("requests", 58)          -- selftest 0008: 50 + 50 / 6 threads
-- finit_module(), udev's path and modprobe's
local dedup    = param("dedup", true)           -- 064f4536d139 (6.4): look before allocating
local busy     = param("busy", true)            -- 0254127ab977 (6.2): -EBUSY after a failed wait
local idempotent = param("idempotent", false)   -- 9b9879fc0327 (6.5): share a concurrent load
local space    = param("space", 1024 * 1024 * 1024)  -- module vmap space, bytes
local compress = param("compress", true)        -- .ko.xz, decompressed in the kernel
local acpi_fails = param("acpi_cpufreq_fails", true)  -- another cpufreq driver is there
local spread   = param("spread_ms", 50)         -- the uevents arrive within this window
local BIG      = param("big", 2498560)          -- "vmap allocation for size 2498560 failed"
local SMALL    = param("small", 315392)         -- the report's other failing size
local storms   = param("storms", 1)             -- every uevent this many times

local limiters = { none = true, enomem = true, waitqueue = true, semaphore = true }
if not limiters[limiter] then
  error("--set limiter: none, enomem, waitqueue or semaphore, not '" .. limiter .. "'")
end
if max < 1 then error("--set max: at least 1") end
if requests < 0 or requests > 100000 then error("--set requests: 0 to 100000") end
if storms < 1 or storms > 1000 then error("--set storms: 1 to 1000") end

-- Costs, all E (estimates for a KASAN debug kernel on a 2019 Xeon), per byte
-- of the module unless said.  What matters for the lesson is that a load
-- takes longer than the udev burst lasts, so the duplicates overlap it.
local READ_NS     = 2      -- kernel_read_file(): page cache to vmalloc
local INFLATE_NS  = 20     -- module_decompress(): xz, ~50 MB/s
local RATIO       = 30     -- compressed size, % of the module
local COPY_NS     = 2      -- layout_and_allocate(): move_module()
local FORM_NS     = 10     -- relocations, KASAN shadow, sysfs, RCU sync
local INIT        = ms(2)  -- do_init_module(), plus for per-CPU drivers:
local INIT_PER_CPU = us(100)  -- per online CPU (e.g. kvm_intel's per-CPU checks)
local INIT_FAIL   = us(50) -- acpi_cpufreq_init(): "a driver is there", -EEXIST
local USERSPACE_MIN, USERSPACE_MAX = us(200), ms(2)  -- rules, modalias lookup, exec

-- David Hildenbrand's table (linux-mm / kasan-dev, 13 Oct 2022): how many
-- times each module was loaded on his machine of over 400 CPUs (448 inferred).  His list also has
-- "compiled-in" (2) and "Loading" (8), artefacts of his grep; left out.
-- The cpu device's modules, in the order its modprobe loads them:
local per_cpu = {
  { "crc32_pclmul", 307 }, { "ghash_clmulni_intel", 205 }, { "intel_cstate", 403 },
  { "intel_uncore", 399, big = true }, { "rapl", 405 }, { "irqbypass", 406 },
  { "kvm", 300, big = true }, { "kvm_intel", 408, big = true },
  { "libnvdimm", 409, big = true }, { "skx_edac", 409 }, { "isst_if_mbox_msr", 165 },
  { "acpi_cpufreq", 448, fails = true },
}
-- the ACPI processor device: the other 448 of acpi_cpufreq's 896
local per_cpu_acpi = { "acpi_cpufreq", 448, fails = true }
-- the rest of the machine: asked for as often as the table says
local devices = {
  { "ioatdma", 64 }, { "dca", 16 }, { "crc32c_intel", 15 }, { "fjes", 14 },
  { "crct10dif_pclmul", 12 }, { "i40e", 4, big = true }, { "ice", 4, big = true },
  { "irdma", 4, big = true }, { "ib_core", 4, big = true }, { "ahci", 2 },
  { "libata", 2 }, { "sg", 2 }, { "xfs", 1, big = true }, { "drm", 1, big = true },
}
for _, n in ipairs{ "acpi_pad", "acpi_power_meter", "cdrom", "coretemp", "crc64",
    "crc64_rocksoft", "crc64_rocksoft_generic", "dm_log", "dm_mirror", "dm_mod",
    "dm_region_hash", "drm_kms_helper", "drm_shmem_helper", "fat", "fb_sys_fops",
    "fuse", "i2c_algo_bit", "i2c_i801", "i2c_smbus", "ib_uverbs", "intel_pch_thermal",
    "intel_powerclamp", "intel_rapl_common", "intel_rapl_msr", "intel_uncore_frequency",
    "intel_uncore_frequency_common", "ipmi_devintf", "ipmi_msghandler", "ipmi_si",
    "ipmi_ssif", "isst_if_common", "libahci", "libcrc32c", "lpc_ich", "megaraid_sas",
    "mei", "mei_me", "mgag200", "nfit", "pcspkr", "qrtr", "rfkill", "sd_mod", "sr_mod",
    "syscopyarea", "sysfillrect", "sysimgblt", "t10_pi", "uas", "usb_storage", "vfat",
    "wmi", "x86_pkg_temp_thermal" } do
  devices[#devices + 1] = { n, 1 }
end

local mods, can_load = {}, 0
local function module_of(e, is_per_cpu)
  local m = mods[e[1]]
  if not m then
    m = { name = e[1], size = e.big and BIG or SMALL, fails = e.fails and acpi_fails,
          per_cpu = is_per_cpu }
    mods[e[1]] = m
    if not m.fails then can_load = can_load + 1 end
  end
  return m
end
-- what the selftest asks request_module() for (lib/test_kmod.c's default)
local test_module = { name = "test_module", size = SMALL }

local module_wq = waitqueue{ name = "module_wq" }   -- finished_loading() sleepers
local idem_wq   = waitqueue{ name = "idem_wait" }   -- 6.5: the first load's completion
local kmod_wq   = waitqueue{ name = "kmod_wq" }     -- 4.13's limiter
local kmod_sem  = lock{ name = "kmod_concurrent_max", count = max, kind = "semaphore" }
local free_slots = atomic{ name = "kmod_concurrent_max", value = max }  -- 4.13
local kmod_concurrent = atomic{ name = "kmod_concurrent" }              -- before 4.13

local c = {}
for _, n in ipairs{ "uevents", "requests", "request_ok", "finit_module", "loaded",
    "duplicate_loads", "failed_busy", "idempotent_waits", "failed_init",
    "failed_enomem", "failed_etime", "failed_vmap", "modprobe_running", "slot_sleepers",
    "slot_wakeups", "module_wq_sleepers" } do
  c[n] = counter{ name = n }
end
-- vmap_bytes: everything module loading holds in vmalloc space (read
-- buffers, decompressed copies, module space); module_space: the part
-- that has a limit; wasted_bytes: allocated for loads that failed, as the
-- 6.4 debugfs "Virtual mem wasted bytes" counts it; dup_module_space: the
-- module-space copies made for duplicates, which 064f4536d139 avoids.
for _, n in ipairs{ "vmap_bytes", "module_space", "wasted_bytes", "dup_module_space" } do
  c[n] = counter{ name = n, unit = "bytes" }
end

local LOADING, LIVE = 1, 2   -- UNFORMED/COMING, LIVE; nil: not there
local state = {}
local in_flight = {}         -- 6.5: module -> a first finit_module() is under way
local space_used = 0
local vmap_failures = {}     -- size -> count, for the check's message
local ncpus = 0              -- the run's CPU count, known once tasks run

-- module_patient_check_exists(): a module of that name is there, or being
-- loaded.  If it is being loaded, sleep until that load ends (each load
-- ends with wake_up_all(&module_wq)).  Then: live, -EEXIST.  Gone (its
-- init failed): since 6.2 -EBUSY, give up; before, try again, and the
-- failing loads of one module run one after the other.  Returns the
-- errno's name, or nil to go on loading.
local function patient_check(m)
  while state[m] == LOADING do
    counter_add(c.module_wq_sleepers, 1)
    wait_event(module_wq, function() return state[m] ~= LOADING end)
    counter_add(c.module_wq_sleepers, -1)
    if state[m] == nil and busy then return "EBUSY" end
  end
  if state[m] == LIVE then return "EEXIST" end
  return nil
end

local function finit_module(m)
  counter_add(c.finit_module, 1)
  local S = m.size
  local held, spent, final = 0, 0, false
  local function alloc(n) counter_add(c.vmap_bytes, n); held = held + n; spent = spent + n end
  local function vfree(n) counter_add(c.vmap_bytes, -n); held = held - n end
  local function give_up(counter, dup)     -- free everything; it was for nothing
    if final then
      space_used = space_used - S
      counter_add(c.module_space, -S)
      if dup then counter_add(c.dup_module_space, S) end
    end
    counter_add(c.vmap_bytes, -held)
    counter_add(c.wasted_bytes, spent)
    counter_add(counter, 1)
  end
  local function refused(err)              -- -EEXIST or -EBUSY from the check
    return give_up(err == "EBUSY" and c.failed_busy or c.duplicate_loads, true)
  end

  local len = compress and S * RATIO // 100 or S
  alloc(len)
  compute(len * READ_NS)                   -- kernel_read_file()
  if compress then
    alloc(S)
    compute(S * INFLATE_NS)                -- module_decompress()
    vfree(len)                             -- "compressed data is no longer needed"
  end
  if dedup then                            -- early_mod_check(), 6.4
    local err = patient_check(m)
    if err then return refused(err) end
  end
  if space_used + S > space then           -- module_alloc() in layout_and_allocate()
    log("vmap allocation for size %d failed: use vmalloc=<size> to increase size", S)
    vmap_failures[S] = (vmap_failures[S] or 0) + 1
    return give_up(c.failed_vmap, false)
  end
  space_used = space_used + S
  counter_add(c.module_space, S)
  alloc(S)
  final = true
  compute(S * COPY_NS)                     -- move_module()
  local err = patient_check(m)             -- add_unformed_module()
  if err then return refused(err) end
  state[m] = LOADING                       -- on the module list, UNFORMED
  compute(S * FORM_NS)                     -- relocations ... complete_formation()
  if m.fails then
    compute(INIT_FAIL)
    state[m] = nil                         -- free_module()
    give_up(c.failed_init, false)
  else
    compute(INIT + (m.per_cpu and INIT_PER_CPU * ncpus or 0))
    state[m] = LIVE
    counter_add(c.loaded, 1)
    vfree(held - S)                        -- free_copy(); the module stays
  end
  wake_up_all(module_wq)
end

-- 6.5's idempotent_init_module(): the first caller for a file loads it; the
-- ones that come while it does wait for it, read nothing and share its
-- result.  Before 6.5 every caller goes through finit_module() itself.
local function load_file(m)
  if not idempotent then return finit_module(m) end
  if in_flight[m] then
    counter_add(c.idempotent_waits, 1)
    wait_event(idem_wq, function() return not in_flight[m] end)
    return
  end
  in_flight[m] = true
  finit_module(m)
  in_flight[m] = nil
  wake_up_all(idem_wq)                     -- idempotent_complete()
end

-- __request_module(): take a slot, run modprobe, give the slot back.
-- modprobe (libkmod) skips a module that /sys/module says is live.
local loop_msgs = 0          -- before 4.13: kmod_loop_msg
local function request_module(m)
  counter_add(c.requests, 1)
  if limiter == "enomem" then
    if atomic_add_return(kmod_concurrent, 1) > max then
      atomic_dec(kmod_concurrent)
      if loop_msgs < 5 then                -- kmod_loop_msg++ < 5
        log("request_module: runaway loop modprobe %s", m.name)
      end
      loop_msgs = loop_msgs + 1
      counter_add(c.failed_enomem, 1)
      return
    end
  elseif limiter == "waitqueue" then
    local tries = 0
    local got = wait_event_timeout(kmod_wq, function()
      tries = tries + 1
      return atomic_dec_if_positive(free_slots) >= 0 end, sec(5))
    if tries > 1 then
      counter_add(c.slot_sleepers, 1)
      counter_add(c.slot_wakeups, tries - 1)   -- every wake_up() woke us
    end
    if not got then
      log("request_module: modprobe %s cannot be processed, kmod busy with %d threads "
          .. "for more than 5 seconds now", m.name, max)
      counter_add(c.failed_etime, 1)
      return
    end
  elseif limiter == "semaphore" then
    local t0 = now()
    local got = down_timeout(kmod_sem, sec(5))
    if now() > t0 + us(1) then                 -- it slept: up() woke it once
      counter_add(c.slot_sleepers, 1)
      counter_add(c.slot_wakeups, got and 1 or 0)
    end
    if not got then
      log("request_module: modprobe %s cannot be processed, kmod busy with %d threads "
          .. "for more than 5 seconds now", m.name, max)
      counter_add(c.failed_etime, 1)
      return
    end
  end
  counter_add(c.modprobe_running, 1)
  compute(rand(USERSPACE_MIN, USERSPACE_MAX))  -- call_usermodehelper(), modprobe
  if state[m] ~= LIVE then load_file(m) end
  counter_add(c.modprobe_running, -1)
  if state[m] == LIVE then counter_add(c.request_ok, 1) end
  if limiter == "enomem" then
    atomic_dec(kmod_concurrent)
  elseif limiter == "waitqueue" then
    atomic_inc(free_slots)
    wake_up(kmod_wq)
  elseif limiter == "semaphore" then
    up(kmod_sem)
  end
end

-- The machine's CPUs.  udevd finds the CPUs the way for_each_possible_cpu()
-- would, by asking for each one: it starts the uevent workers of CPU k
-- pinned to CPU k, until there is no CPU k.  With more CPUs come
-- proportionally more uevents.  (A top-level ncpus() would do too; this
-- scenario was written before it worked there, and keeps its way.)
local function share(count, k)   -- CPU k's share of `count` loads per 448 CPUs
  return (count * (k + 1)) // 448 - (count * k) // 448
end
for _, e in ipairs(per_cpu) do module_of(e, true) end
module_of(per_cpu_acpi, true)
for _, e in ipairs(devices) do module_of(e, false) end

-- A udev worker: one uevent, its modules loaded in turn with finit_module()
-- (udev's builtin kmod, no modprobe and no limiter).
local function worker(arrival, list)
  return function()
    sleep(arrival)                       -- the uevent reaches a worker
    counter_add(c.uevents, 1)
    measure("uevent", function()
      for _, m in ipairs(list) do
        compute(rand(USERSPACE_MIN, USERSPACE_MAX))  -- rules, modalias, open()
        load_file(m)
      end
    end)
  end
end

task{ name = "udevd", cpu = 0, run = function()
  local k = 0
  while true do
    local list = {}
    for _, e in ipairs(per_cpu) do
      for _ = 1, share(e[2], k) do list[#list + 1] = mods[e[1]] end
    end
    local ok = pcall(spawn, { name = "udev/cpu" .. k, cpu = k,
                              run = worker(rand(0, ms(spread)), list) })
    if not ok then break end             -- no CPU k: that was all of them
    local acpi = {}
    for _ = 1, share(per_cpu_acpi[2], k) do acpi[#acpi + 1] = mods.acpi_cpufreq end
    spawn{ name = "udev/acpi" .. k, cpu = k, run = worker(rand(0, ms(spread)), acpi) }
    for _ = 2, storms do
      spawn{ name = "udev/cpu" .. k, cpu = k, run = worker(rand(0, ms(spread)), list) }
      spawn{ name = "udev/acpi" .. k, cpu = k, run = worker(rand(0, ms(spread)), acpi) }
    end
    k = k + 1
  end
  ncpus = k
end }

-- The other devices' uevents: as many as the table says, whatever the CPUs.
for _, e in ipairs(devices) do
  for _ = 1, e[2] * storms do
    task{ name = "udev/" .. e[1], start = math.random(0, ms(spread)),
          run = worker(0, { mods[e[1]] }) }
  end
end

-- The kernel's own requests: the selftest's threads, all started at once
-- (within a microsecond each), each calling request_module() once.
for i = 1, requests do
  task{ name = "kmod_test/" .. i, start = ms(spread) + us(i), run = function()
    measure("request_module", function() request_module(test_module) end)
  end }
end

-- ------------------------------------------------------------ checks --

local MiB = 1024 * 1024
local function v(r, name) return r.counters[name].value end
local function peak(r, name) return r.counters[name].peak end

-- Every module that can load did: a boot that lost a driver is a failed boot.
check(function(r)
  return v(r, "loaded") - (state[test_module] == LIVE and 1 or 0) == can_load,
    string.format("udev: %d of %d modules loaded (and %d loads of acpi_cpufreq, whose "
    .. "init refuses); %d uevents, %d finit_module() calls",
    v(r, "loaded") - (state[test_module] == LIVE and 1 or 0), can_load,
    v(r, "failed_init"), v(r, "uevents"), v(r, "finit_module"))
end)

-- The lesson of 2022: duplicate copies must not exhaust module space.
check(function(r)
  local sizes = {}
  for size, n in pairs(vmap_failures) do
    sizes[#sizes + 1] = string.format("%d x %d", n, size)
  end
  table.sort(sizes)
  return v(r, "failed_vmap") == 0, string.format(
    "module space: peak %.0f of %.0f MiB, %d loads failed for lack of it%s",
    peak(r, "module_space") / MiB, space / MiB, v(r, "failed_vmap"),
    #sizes > 0 and (" (\"vmap allocation for size ... failed\": "
                    .. table.concat(sizes, ", ") .. " bytes)") or "")
end)

-- request_module(): never more than `max` modprobes, and every call
-- succeeds (what the selftest expects of test 0008).
check(function(r)
  local p = peak(r, "modprobe_running")
  local sleepers, wakeups = v(r, "slot_sleepers"), v(r, "slot_wakeups")
  local msg = string.format("request_module(): %d of %d calls returned 0; at most %d "
    .. "modprobe at once (peak %d); %d slept for a slot, woken %d times (%.1f each); "
    .. "%d failed with -ENOMEM, %d with -ETIME after 5 s", v(r, "request_ok"),
    v(r, "requests"), max, p, sleepers, wakeups, sleepers > 0 and wakeups / sleepers or 0,
    v(r, "failed_enomem"), v(r, "failed_etime"))
  if limiter == "none" then msg = msg .. " (no limiter)" end
  return v(r, "request_ok") == requests and (limiter == "none" or p <= max), msg
end)

-- What 064f4536d139 fixes: a duplicate no longer takes module space.  What
-- it leaves: the read buffer and the decompressed copy are still made and
-- thrown away, so the waste still grows with the CPUs, until 6.5 (9b9879fc0327)
-- makes concurrent loads of one file wait before reading it.
-- Not 0: a duplicate that looks before the first load is on the module list
-- still gets through, the race that remains.
check(function(r)
  local dup = v(r, "dup_module_space")
  local waste = v(r, "wasted_bytes")
  local msg = string.format("%d duplicate loads, %d -EBUSY, %d waited for a concurrent "
    .. "load; %.0f MiB thrown away (%.1f MiB per CPU), %.0f MiB of it module space taken "
    .. "by duplicates", v(r, "duplicate_loads"), v(r, "failed_busy"),
    v(r, "idempotent_waits"), waste / MiB, waste / MiB / r.cpus, dup / MiB)
  if not dedup then
    return dup == 0, msg .. " (no early check: each duplicate took its copy first)"
  end
  return dup <= waste // 20, msg .. " (under 5%: the early check catches them)"
end)
