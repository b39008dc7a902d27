"""Ctrl-C: a test sends SIGINT to a Python process counting a puzzle that would take centuries;
the count stops and keeps its partial figure (Interrupted, a KeyboardInterrupt). The same for
a loop over solutions, which raises KeyboardInterrupt and stops its run."""

import signal
import subprocess
import sys
import textwrap
import time

# An open catalog puzzle whose count is estimated at centuries of CPU.
ENDLESS = "hexominoes-holey-rectangle-1"

COUNT = textwrap.dedent(f"""
    import sys, cubesat
    p = cubesat.load({ENDLESS!r})
    p.placement_count  # the placements built before the count starts
    print("counting", flush=True)
    try:
        p.count(threads=2)
    except cubesat.Interrupted as e:
        c = e.partial
        print("interrupted", int(c), c.interrupted, isinstance(e, KeyboardInterrupt), flush=True)
        sys.exit(0)
    print("finished", flush=True)
    sys.exit(1)
""")

LOOP = textwrap.dedent("""
    import sys, cubesat
    it = cubesat.load("iq-puzzler-pro-2d").solutions(up_to="none")
    n = 0
    try:
        for s in it:
            n += 1
            if n == 10:
                print("listing", flush=True)
    except KeyboardInterrupt:
        # The signal may land in the loop's body rather than in the wait for a solution:
        # closing the iterator stops its run either way.
        it.close()
        print("stopped", n, it.count.interrupted, flush=True)
        sys.exit(0)
    print("finished", n, flush=True)
    sys.exit(1)
""")


def interrupt(script, settle=0.0):
    """Runs `script` in a fresh interpreter, sends SIGINT `settle` seconds after it prints its
    first line, and returns (its first line, the rest of its output, its exit code)."""
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        first = child.stdout.readline()
        time.sleep(settle)
        child.send_signal(signal.SIGINT)
        # A bound on a hang, not a timing check: the child stops within a second.
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    return first.strip(), out.strip(), child.returncode, err


def test_sigint_stops_a_count_and_keeps_the_partial_figure():
    # The line is printed just before the count starts: a signal sent at once can land in the
    # print's return, before the count (a KeyboardInterrupt from the script's own line). Half
    # a second later the child is in a count that runs for centuries.
    first, out, code, err = interrupt(COUNT, settle=0.5)
    assert first == "counting", err
    assert code == 0, (out, err)
    word, count, flagged, keyboard = out.split()
    assert word == "interrupted" and int(count) >= 0
    assert flagged == "True" and keyboard == "True"


def test_sigint_stops_a_loop_over_solutions():
    first, out, code, err = interrupt(LOOP)
    assert first == "listing", err
    assert code == 0, (out, err)
    word, n, flagged = out.split()
    assert word == "stopped" and 10 <= int(n) < 4331140 and flagged == "True"
