"""Loaded by Python at start-up for `scripts/clock-ahead.sh` only (its PYTHONPATH): it works round
a limit of Debian's faketime (libfaketime 0.9.10) with Python 3.11, and can list every reading of
the machine's clock by pbem.

With FAKETIME_DONT_FAKE_MONOTONIC=1 (needed: Python's timed lock waits use sem_clockwait on the
monotonic clock, which libfaketime does not translate, so with a faked monotonic clock every wait
that times out would last the offset), libfaketime turns time.sleep's absolute clock_nanosleep
into an invalid request (EINVAL). Here a sleep waits by select's relative timeout instead.

CLOCK_AUDIT=<file>: every `pbem.clock.now()` that reads the machine's clock (no PBEM_NOW) is
written there with the test that made it, from pytest and from every pbem process it starts.
"""
import importlib.abc
import importlib.util
import os
import sys
import traceback

if os.environ.get("FAKETIME_DONT_FAKE_MONOTONIC") == "1" and "faketime" in os.environ.get("LD_PRELOAD", ""):
    import select
    import time

    def _sleep(seconds):
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            select.select([], [], [], left)

    time.sleep = _sleep


class _Audit(importlib.abc.MetaPathFinder):
    def __init__(self, log: str):
        self.log = log

    def find_spec(self, name, path, target=None):
        if name != "pbem.clock":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        run, log = spec.loader.exec_module, self.log

        def exec_module(module):
            run(module)
            real = module.now

            def now():
                if not os.environ.get("PBEM_NOW", "").strip():
                    where = "".join(traceback.format_stack(limit=4)[:-1]).replace("\n", " | ")
                    with open(log, "a", encoding="utf-8") as f:
                        f.write(f"{os.environ.get('PYTEST_CURRENT_TEST', '?')}\t{sys.argv[:3]}\t{where}\n")
                return real()
            module.now = now
        spec.loader.exec_module = exec_module
        return spec


if os.environ.get("CLOCK_AUDIT"):
    sys.meta_path.insert(0, _Audit(os.environ["CLOCK_AUDIT"]))
