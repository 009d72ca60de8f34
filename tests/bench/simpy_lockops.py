"""simpy_lockops.py - tests/bench/lockops.lua's rounds in SimPy, the yardstick.

    python3 simpy_lockops.py TASKS ROUNDS

TASKS processes share ROUNDS rounds as lockops.lua shares them; a round
is: request a Resource of capacity 1 (the semaphore's down), hold it for
100 time units (compute(100 ns)), release it (up).  SimPy models no CPUs,
run queues, wake-ups or trace, so this is the floor of what a
discrete-event round costs in a well-kept Python simulator.  Only
env.run() is timed, as bench_lua times only the run, in CPU seconds of
the process.

Prints key=value lines: rounds, run_cpu_s, rounds_per_cpu_s, simpy.
"""
import sys
import time

import simpy


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: simpy_lockops.py TASKS ROUNDS")
    tasks, rounds = int(sys.argv[1]), int(sys.argv[2])
    if tasks < 1 or rounds < 1:
        sys.exit("simpy_lockops.py: TASKS and ROUNDS must be at least 1")
    env = simpy.Environment()
    lock = simpy.Resource(env, capacity=1)
    per, extra = divmod(rounds, tasks)
    done = [0]

    def worker(n):
        for _ in range(n):
            req = lock.request()
            yield req
            yield env.timeout(100)
            lock.release(req)
        done[0] += n

    for i in range(tasks):
        env.process(worker(per + (1 if i < extra else 0)))
    t0 = time.process_time()
    env.run()
    t1 = time.process_time()
    if done[0] != rounds:
        sys.exit("simpy_lockops.py: %d rounds done of %d" % (done[0], rounds))
    print("rounds=%d" % rounds)
    print("run_cpu_s=%.6f" % (t1 - t0))
    print("rounds_per_cpu_s=%.0f" % (rounds / (t1 - t0)))
    print("simpy=%s" % simpy.__version__)


main()
