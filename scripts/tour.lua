-- The museum's route: one exhibit{} per stop, in chronological order.
-- `lockmuseum tour` walks it (headless: each exhibit's lesson and report;
-- with --out DIR, also one PNG per exhibit); the window starts at the
-- first exhibit and N/P move along it.
--
-- Each exhibit names a scenario in scripts/, the era it is shown in, the
-- modes it contrasts (the first is the one shown and reported in full),
-- parameters for the scenario, and what to look at.

exhibit{
  scenario = "uniproc_cli.lua", era = "1991", modes = { "native" },
  title = "1991: one CPU, and cli() is the only lock",
  text = "Linux 0.01 runs on one 386 and never preempts kernel code: a task keeps " ..
         "the CPU until it sleeps. Only the keyboard interrupt can cut in, so the " ..
         "tty code brackets its buffer with cli() and sti(), and even sleeps with " ..
         "interrupts off: the flag belongs to the task.",
  look = "The reader lanes sleep in wait_event while the keyboard's interrupts fill the " ..
         "buffer, and no update is lost.",
}

exhibit{
  scenario = "scsi_host.lua", era = "1992",
  title = "1992: the first semaphores, in the SCSI layer",
  text = "Good SCSI support brought the kernel's first semaphores: one per host " ..
         "adapter keeps commands apart, and an issuer waits for its command on a " ..
         "semaphore created locked, which the completion interrupt releases.",
  look = "Every up() comes from the controller's interrupt, on behalf of a task " ..
         "that is asleep in down(): legal for a semaphore, and the heart of it.",
}

exhibit{
  scenario = "inode.lua", era = "1994", modes = { "semaphore", "cli" }, cpus = 1,
  set = { loops = 100 },
  title = "1994: i_sem, a semaphore in every inode",
  text = "0.99.15c brings general kernel semaphores, and every inode gets one: " ..
         "i_sem. Directory operations take the parent's around the lookup and the " ..
         "change. On one CPU without preemption, cli() would have done as well.",
  look = "Both modes are correct on one CPU: no lost updates, the directory ends " ..
         "empty. The semaphore lets a task sleep while holding it; cli() does not.",
}

exhibit{
  scenario = "bkl.lua", era = "1999", modes = { "native", "spinlock" },
  title = "1996-2011: every path through one lock",
  text = "SMP arrives in 2.0 with one Big Kernel Lock around the whole kernel. It is " ..
         "recursive and dropped while its holder sleeps, so old code keeps working; " ..
         "but only one CPU at a time runs kernel code.",
  look = "Spinning CPUs: adding processors adds waiting, not throughput. With one " ..
         "spinlock per lock instead, the paths that do not share data run in parallel.",
}

exhibit{
  scenario = "uniproc_cli.lua", era = "2003", cpus = 2, anachronism = true,
  modes = { "cli" }, fails = { "cli" },
  title = "2003: the same cli() on two CPUs",
  text = "Since 2.5.28 cli() masks interrupts on the local CPU only. Run the 1991 tty " ..
         "code unchanged on a two-CPU 2.6 kernel and its readers, on different CPUs, " ..
         "are no longer kept apart; and sleeping with interrupts off is now a bug.",
  look = "The violations: lost updates on the buffer count, and sleeping while atomic.",
}

exhibit{
  scenario = "spin_fairness.lua", era = "2005", modes = { "native" },
  title = "2005: test-and-set spinlocks are unfair",
  text = "A test-and-set spinlock goes to whichever CPU grabs the cache line first, " ..
         "usually the one that just released it. Nick Piggin measured threads on an " ..
         "8-core Opteron finishing up to twice as late as others.",
  look = "The spread of finish times between the tasks, and the per-task acquisitions.",
}

exhibit{
  scenario = "test_mutex.lua", era = "2006", modes = { "semaphore", "mutex" },
  title = "2006: mutexes, and the semaphore's thundering herd",
  text = "Ingo Molnar's test-mutex ran 16 tasks on an 8-way box for ten seconds, each " ..
         "creating a file of its own in one directory, over and over: mutexes did 2.4 " ..
         "times the semaphores' loops at a third of the CPU. Both let a running task " ..
         "take the lock past a woken waiter. The semaphore also woke a sleeper each " ..
         "time a task left its slow path, skipping those already woken: wake-ups mostly " ..
         "for nothing. The mutex wakes its first waiter and nobody else until that one " ..
         "has tried.",
  look = "The wake-ups on dir->i_sem in the lock panel (woken, lost, stolen), and on " ..
         "the CPU lanes the dark switching for the woken sleepers and the timer ticks: " ..
         "the semaphore burns 1.5 times the mutex's share of the CPUs (Molnar: " ..
         "63% against 22%), and the mutex does 2.3 times its loops (Molnar: 2.4). Nothing " ..
         "is drawn at random: the ticks and the lines all tasks write are the only noise.",
}

exhibit{
  scenario = "scsi_host.lua", era = "2006", modes = { "mutex" }, cpus = 1,
  fails = { "mutex" },
  title = "2006: why some semaphores could not become mutexes",
  text = "When mutexes arrived most binary semaphores were converted by search and " ..
         "replace. Not these: a mutex is released only by its owner, and never " ..
         "from an interrupt.",
  look = "The violations: mutex-unlock-in-irq on every completion.",
}

exhibit{
  scenario = "printk.lua", era = "2006", modes = { "native", "mutex" },
  fails = { "mutex" },
  title = "2006: printk() and the console semaphore",
  text = "printk() can be called from anywhere, interrupts included. Whoever wins " ..
         "down_trylock(console_sem) prints everyone's messages to the slow console " ..
         "and then up()s it, sometimes from an interrupt handler, sometimes waking " ..
         "a task asleep in down(): another semaphore that stayed a semaphore.",
  look = "Messages printed by a context other than their author, and the releases " ..
         "from interrupt context that the mutex run reports as violations.",
}

exhibit{
  scenario = "spin_fairness.lua", era = "2008", modes = { "native" },
  title = "2008: ticket spinlocks take turns",
  text = "2.6.25 hands the lock out by ticket, first come first served, on Piggin's " ..
         "2-socket Opteron. With --era 2007 the same machine runs test-and-set: the " ..
         "line stays on the releaser's socket, whose tasks finish first, the others " ..
         "about 1.7x later (Piggin: up to 2x). Every ticket hand-off still makes " ..
         "every spinner re-read the line, one at a time.",
  look = "All tasks now finish together; the hand-off cost grows with the spinners.",
}

exhibit{
  scenario = "aim7_bkl.lua", era = "2008", modes = { "native" },
  set = { bkl = "generic-semaphore" },
  title = "2008: a fair Big Kernel Lock, and AIM7",
  text = "2.6.26-rc1 makes the BKL the new generic semaphore, which hands it to the " ..
         "first sleeper. AIM7 on tmpfs slows sharply; Linus Torvalds turns the BKL " ..
         "back into a spinlock. The 2006 lesson turned around: stealing was what " ..
         "made the old semaphore fast.",
  look = "Idle CPUs while the BKL waits for the task it was handed to wake up and " ..
         "switch in (Molnar's quad, 2000 tasks). --set bkl=legacy-semaphore or " ..
         "bkl=spinlock runs the same jobs on 2.6.25's BKL or 2.6.26's: both keep up.",
}

exhibit{
  scenario = "spin_collapse.lua", era = "2012", modes = { "native" },
  title = "2012: ticket spinlocks collapse on 48 cores",
  text = "Boyd-Wickizer, Kaashoek, Morris and Zeldovich ran a short critical " ..
         "section, 2% of each core's time, on a 48-core Opteron. With ticket " ..
         "locks throughput rose to a dozen cores, then fell off a cliff: each " ..
         "release makes every spinner re-read the lock's line, one at a time, " ..
         "and the more wait, the slower each hand-off, so more pile up.",
  look = "48 cores doing about one core's work: every core spins most of the time. " ..
         "compare --sets lock=ticket,mcs --markov draws the cliff, the MCS " ..
         "lock's plateau and the paper's Markov model side by side.",
}

exhibit{
  scenario = "qspinlock_2015.lua", era = "2015", modes = { "native" },
  title = "2015: queued spinlocks spin on their own line",
  text = "4.2 replaces ticket locks with Waiman Long's queued spinlock: a second " ..
         "CPU sets a pending bit, later ones queue, each watching a cache line of " ..
         "its own, so a release touches two lines however many wait. On his 4-socket " ..
         "Westmere-EX, AIM7 on ext4 nearly doubled its jobs per minute.",
  look = "All 40 CPUs contend: compare the operations per second with --set " ..
         "lock=ticket, where every release is re-read by every waiter, each socket's " ..
         "L3 answering its own cores. With --cpus 3 --set work_ns=0 the queued lock " ..
         "is the slower one.",
}

exhibit{
  scenario = "mlx5.lua", era = "2022", set = { throttle = false },
  fails = { "native" },
  title = "2022: mlx5 firmware commands, without the throttle",
  text = "A ConnectX NIC takes firmware commands through 31 slots, guarded by a " ..
         "counting semaphore; a 32nd is kept for the firmware's page requests, " ..
         "behind a semaphore of one. Offloading thousands of TLS connections floods " ..
         "the 31 with general-object commands, and a critical control command " ..
         "queues behind all of them.",
  look = "The critical latency (ops: critical): over a millisecond, because every " ..
         "slot is held by a TLS command and the semaphore's queue is first come, " ..
         "first served. Page requests still get through their own slot.",
}

exhibit{
  scenario = "mlx5.lua", era = "2022", set = { throttle = true },
  title = "2022: a second semaphore as a throttle",
  text = "Commit 63fbae0a74c3 (written in 2022, in mainline from 6.3) makes " ..
         "general-object commands first take a throttle semaphore of 16, half the " ..
         "slots, and refuses them to callers that cannot sleep. The firmware's own " ..
         "rate, not the slots, was the bound, so the TLS rate does not drop.",
  look = "Critical p99 falls about eightfold while the general-object rate stays " ..
         "within 1%: a semaphore used as what it always was, a counter of resources.",
}

exhibit{
  scenario = "kmod.lua", era = "2022", cpus = 448,
  fails = { "native" },
  set = { dedup = false, busy = false, limiter = "waitqueue" },
  title = "2022: 448 CPUs load the same modules at once",
  text = "At boot, udev loads each device's modules itself with finit_module(), once " ..
         "per CPU: acpi_cpufreq 896 times on David Hildenbrand's machine. No limiter " ..
         "is on that path. Each load read, decompressed and copied the module before " ..
         "finding it already there, and the 1 GiB of module space ran out.",
  look = "The module-space counter hits its ceiling; the failed loads are " ..
         "'vmap allocation ... failed'. The kmod limiter, on request_module() only, " ..
         "never sees them.",
}

exhibit{
  scenario = "kmod.lua", era = "2023", cpus = 448,
  set = { limiter = "semaphore", dedup = true, busy = true },
  title = "2023: look first, and a semaphore as the limiter",
  text = "6.4 makes finit_module() look for the module before allocating, which " ..
         "fixed the storm; and request_module()'s limiter (an atomic count and a " ..
         "wait queue that woke every waiter since 4.13) becomes what it always was: " ..
         "DEFINE_SEMAPHORE(kmod_concurrent_max, 50) with down_timeout(). Linus had " ..
         "called semaphores the classic concurrency limiter.",
  look = "Peak module space far below the ceiling, no failed loads, and one " ..
         "wake-up per request_module() caller that waited for a slot.",
}
