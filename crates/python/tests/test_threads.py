"""Threads: a count uses the engines' threads and gives the same figure on one or several;
counts release the GIL, so Python threads count side by side and the interpreter keeps
running while they do."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import cubesat


def test_one_thread_or_several_count_the_same():
    p = cubesat.load("pentominoes-8x8-square")
    assert p.count(threads=1) == p.count(threads=2) == 16146
    assert p.count(up_to="none", threads=3) == 129168


def test_python_threads_count_side_by_side():
    names = ["soma", "pentominoes-6x10", "tetracubes-2x4x4", "kanoodle-2d"]
    want = [480, 2339, 1390, 92755]
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda n: cubesat.load(n).count(threads=1), names))
    assert got == want


def test_the_interpreter_runs_while_a_count_does_and_stops_it():
    # A count that would take centuries, on another thread: this thread can set its stop
    # only if the count released the GIL (else the join below times out).
    p = cubesat.load("hexominoes-holey-rectangle-1")
    p.placement_count
    stop = cubesat.Stop()
    result = []
    t = threading.Thread(target=lambda: result.append(p.count(threads=2, stop=stop)))
    t.start()
    time.sleep(0.5)  # lets the count start; this thread wakes only if it released the GIL
    stop.set()
    t.join(120)
    assert not t.is_alive() and stop.is_set()
    [c] = result
    assert c.interrupted and int(c) >= 0


def test_a_stop_set_before_the_run_stops_it_at_once():
    stop = cubesat.Stop()
    stop.set()
    c = cubesat.load("iq-puzzler-pro-2d").count(up_to="none", stop=stop)
    assert c.interrupted and c < 4331140
    it = cubesat.load("iq-puzzler-pro-2d").solutions(up_to="none", stop=stop)
    assert len(list(it)) < 4331140 and it.count.interrupted
