"""Table farming: guests open challenge tables and walk away; do the tables go?

Starts ``twmj serve`` (bench/attack.py's ``Server``: a temporary SQLite database, a
free loopback port) from this checkout or ``--pythonpath``, with short
``pause_after`` and ``abandon_after`` (the defaults are 60 s and 600 s; the rule is
the same), then ``--tables`` guests each open a challenge table and close the socket
at once. Every second it reads the server's RSS and ``/metrics`` (tables by state)
until no table is left or ``--wait`` s pass, then restarts the server and counts the
tables it resumed. Prints one line a sample and a summary (``--json``).

    .venv/bin/python bench/abandon.py --tables 60
    .venv/bin/python bench/abandon.py --tables 60 --pythonpath /tmp/old/src   # before
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import tempfile
import time
from pathlib import Path

import httpx
from attack import Server, seat_player


def tables(srv: Server) -> dict[str, int]:
    text = httpx.get(srv.base + "/metrics", timeout=30).text
    return {m[1]: int(float(m[2]))
            for m in re.finditer(r'^twmj_tables\{state="(\w+)"\} (\S+)$', text, re.M)}


async def farm(srv: Server, n: int) -> None:
    for _ in range(n):
        p, _token = await seat_player(srv, "challenge")
        await p.ws.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=60)
    ap.add_argument("--pause-after", type=float, default=2.0)
    ap.add_argument("--abandon-after", type=float, default=5.0)
    ap.add_argument("--wait", type=float, default=120.0)
    ap.add_argument("--pythonpath")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(a.pythonpath, Path(tmp))
        srv.env.update({"TWMJ_PAUSE_AFTER": str(a.pause_after),
                        "TWMJ_ABANDON_AFTER": str(a.abandon_after),
                        "TWMJ_DISCONNECT_GRACE": "0.5", "TWMJ_AUTH_RATE": "1000",
                        "TWMJ_AUTH_BURST": "1000"})
        srv.start()
        try:
            rss0 = srv.rss_mb()
            t0 = time.monotonic()
            asyncio.run(farm(srv, a.tables))
            farmed = time.monotonic() - t0
            samples = []
            while True:
                states = tables(srv)
                live = sum(v for k, v in states.items() if k not in ("ended", "aborted"))
                samples.append({"t": round(time.monotonic() - t0, 1), "rss_mb":
                                round(srv.rss_mb(), 1), **states})
                if not a.json:
                    print(samples[-1])
                if live == 0 or time.monotonic() - t0 > farmed + a.wait:
                    break
                time.sleep(1.0)
            peak = max(s["rss_mb"] for s in samples)
            srv.stop()
            srv.start()
            time.sleep(1.0)
            resumed = sum(v for k, v in tables(srv).items() if k not in ("ended", "aborted"))
        finally:
            srv.stop()
    out = {"tables": a.tables, "farmed_s": round(farmed, 1), "rss_start_mb": round(rss0, 1),
           "rss_peak_mb": peak, "rss_end_mb": samples[-1]["rss_mb"],
           "tables_left": live, "left_after_s": samples[-1]["t"],
           "resumed_after_restart": resumed}
    print(json.dumps(out) if a.json else
          f"{a.tables} challenge tables farmed in {out['farmed_s']} s; RSS {out['rss_start_mb']}"
          f" -> peak {peak} -> {out['rss_end_mb']} MB; {live} tables still held after "
          f"{out['left_after_s']} s; {resumed} resumed by a restart")


if __name__ == "__main__":
    main()
