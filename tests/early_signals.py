#!/usr/bin/env python3
# early_signals.py PCBENCH - SIGINT, SIGTERM and SIGHUP at any moment of pcbench's start end
# it with exit 3 (or 0 once it has finished), never with the default action (130, 143, 129).
#
# 1. Started with the three blocked (a parent may; the mask outlives exec), each signal is
#    sent at delays from 0 to 30 ms after the fork: during exec, the dynamic loader, the
#    libraries' constructors, option parsing and the run's start. Blocked, it waits until
#    pcbench unblocks it, which it does only once its handler is in place (stop_install):
#    exit 3 at every delay, deterministically (no timing is asserted).
# 2. Not blocked: once /proc/PID/status shows the three caught (SigCgt), a signal is exit 3.
#    Before that moment (exec and the dynamic loader, a few ms) no handler can exist.
import os
import signal
import subprocess
import sys
import tempfile
import time

pcbench = os.path.abspath(sys.argv[1])
SIGS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
fails = 0
args = [pcbench, "model", "-s", "page_counter", "-p", "+ABC", "-w", "direct", "-t", "2",
        "--ops", "100000000", "-q"]


def start(blocked):
    if blocked:
        signal.pthread_sigmask(signal.SIG_BLOCK, SIGS)
    try:
        return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGS)


def caught(pid):
    """the three signals have handlers in process @pid (SigCgt)"""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    mask = int(line.split()[1], 16)
                    return all(mask >> (s - 1) & 1 for s in SIGS)
    except OSError:
        pass
    return False


def finish(p, what):
    global fails
    try:
        err = p.communicate(timeout=60)[1].decode(errors="replace")
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        print(f"FAIL: {what}: still running 60 s after the signal")
        fails += 1
        return
    if p.returncode != 3:
        print(f"FAIL: {what}: exit {p.returncode}, want 3: {err.strip()}")
        fails += 1
    return p.returncode


with tempfile.TemporaryDirectory() as tmp:
    os.chdir(tmp)
    n = 0
    for sig in SIGS:
        for delay_ms in (0, 0.5, 1, 2, 3, 4, 6, 8, 12, 16, 24, 30):
            p = start(blocked=True)
            if delay_ms:
                time.sleep(delay_ms / 1000)
            p.send_signal(sig)
            rc = finish(p, f"{sig.name} {delay_ms} ms after the fork, blocked")
            n += rc == 3
        p = start(blocked=False)
        while p.poll() is None and not caught(p.pid):
            time.sleep(0.0005)
        p.send_signal(sig)
        rc = finish(p, f"{sig.name} once the handlers are installed")
        n += rc == 3
    if os.listdir(tmp):
        print(f"FAIL: left behind: {os.listdir(tmp)}")
        fails += 1
print(f"early signals: {n} runs ended with exit 3, {fails} failures")
sys.exit(1 if fails else 0)
