"""pbem's own work per order, without mail servers, on two versions of pbem in turn.

    python bench/own_work.py BEFORE_DIR [rounds]

P1's traffic (1,000 orders for 500 matches) handed to `GM.receive` one raw message at a time
in a fresh store with the local transport: the parse, the reading, the checks, the transaction
and the mails rendered into the outbox, but no IMAP fetch and no SMTP send. Two kinds of order:
"plain" (P1's two-line orders) and "quoting" (P1q's: a reply naming the welcome in In-Reply-To
and quoting it whole). Each round runs the earlier code (BEFORE_DIR, first on PYTHONPATH) and this
tree in separate processes, alternating which goes first; printed are the milliseconds per order
(wall and CPU) of each, their medians and after/before.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GM, GEORGE, BILL = "gm@example.test", "george@example.test", "bill@example.test"


def measure(kind: str) -> dict:
    """One run in this process: ms per order for `kind` ("plain" or "quoting")."""
    sys.path.insert(0, str(ROOT / "bench"))
    from mail_e2e import p1_traffic  # the same mails as P1 and P1q

    from pbem.app import App
    from pbem.config import load
    folder = Path(tempfile.mkdtemp(prefix="pbem-own-"))
    (folder / "pbem.yaml").write_text(f"gm:\n  address: {GM}\n  name: Golf GM\nstore: ./pbem.sqlite3\n"
                                      "transport: local\nlocal:\n  maildir: ./mail\nlog:\n  level: warning\n"
                                      "limits:\n  messages_per_hour: 1000000\n")
    os.chdir(folder)
    app = App.open(load(folder / "pbem.yaml"))
    raws = p1_traffic(app, quoting=kind == "quoting")
    wall, cpu = time.perf_counter(), time.process_time()
    outcomes = [app.gm.receive(raw).status for raw in raws]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert outcomes.count("handled") == len(raws), {s: outcomes.count(s) for s in set(outcomes)}
    app.close()
    return {"wall_ms": 1000 * wall / len(raws), "cpu_ms": 1000 * cpu / len(raws)}


def run(code: Path, kind: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(code))
    out = subprocess.run([sys.executable, __file__, "--measure", kind], env=env, cwd="/", capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    if sys.argv[1] == "--measure":
        import pbem
        figures = measure(sys.argv[2])
        figures["pbem"] = pbem.__file__
        print(json.dumps(figures))
        return
    before = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    seen: dict[tuple[str, str], list[dict]] = {}
    for i in range(rounds):
        order = [("before", before), ("after", ROOT)]
        for label, code in order if i % 2 == 0 else order[::-1]:
            for kind in ("plain", "quoting"):
                figures = run(code, kind)
                assert figures["pbem"].startswith(str(code)), figures
                seen.setdefault((label, kind), []).append(figures)
                print(f"round {i + 1} {label:6} {kind:7}: {figures['wall_ms']:.2f} ms/order wall, "
                      f"{figures['cpu_ms']:.2f} ms CPU", flush=True)
    for kind in ("plain", "quoting"):
        b = [f["cpu_ms"] for f in seen[("before", kind)]]
        a = [f["cpu_ms"] for f in seen[("after", kind)]]
        bw = [f["wall_ms"] for f in seen[("before", kind)]]
        aw = [f["wall_ms"] for f in seen[("after", kind)]]
        print(f"{kind}: CPU ms/order median before {statistics.median(b):.2f}, after {statistics.median(a):.2f}, "
              f"after/before {statistics.median(a) / statistics.median(b):.3f}; wall before "
              f"{statistics.median(bw):.2f}, after {statistics.median(aw):.2f}, after/before "
              f"{statistics.median(aw) / statistics.median(bw):.3f}")


if __name__ == "__main__":
    main()
