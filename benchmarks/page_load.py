"""A phone's first visit to the served app: bytes over the network and seconds, gzipped (the app's `GzipFiles`)
against the same server's files sent as they are (the peer, in the same run: a browser that does not accept gzip).

    python -m benchmarks.page_load [--rounds 3] [--mbps 30] [--latency-ms 20]

Serves the app (`companion app`, the demo, a throwaway table) and opens it in Debian's chromium, each visit in a
fresh browser context (nothing cached), the network throttled to a phone on the table's Wi-Fi. The two kinds of
visit alternate. For each: "shell" is the time until Flutter has put its page up (the semantics placeholder), "files"
until the last file the page asked for in its first 8 s has arrived, "MB" what came over the network.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _visit(browser: Any, url: str, gzip: bool, mbps: float, latency_ms: float) -> tuple[float, float, float]:
    headers = {} if gzip else {"extra_http_headers": {"Accept-Encoding": "identity"}}
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, **headers)
    try:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Network.enable")
        rate = mbps * 1e6 / 8
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
                                                      "downloadThroughput": rate, "uploadThroughput": rate})
        sizes: dict[str, int] = {}
        stamps: list[float] = []

        def finished(e: dict[str, Any]) -> None:
            sizes[e["requestId"]] = e["encodedDataLength"]
            stamps.append(e["timestamp"])

        cdp.on("Network.requestWillBeSent", lambda e: stamps.append(e["timestamp"]))
        cdp.on("Network.loadingFinished", finished)
        t0 = time.perf_counter()
        page.goto(url)
        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=180_000)
        shell = time.perf_counter() - t0
        page.wait_for_timeout(8000)
        return shell, max(stamps) - min(stamps), sum(sizes.values()) / 1e6
    finally:
        ctx.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mbps", type=float, default=30.0, help="download and upload rate (default 30 Mbit/s)")
    ap.add_argument("--latency-ms", type=float, default=20.0)
    args = ap.parse_args(argv)
    chromium = shutil.which("chromium")
    if chromium is None:
        print("page_load: needs Debian's chromium (apt install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-m", "companion", "app", "--no-browser", "--port", str(port),
                                   "--table", str(Path(tmp) / "table.sqlite")], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            for _ in range(600):
                try:
                    urllib.request.urlopen(url, timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            runs: dict[bool, list[tuple[float, float, float]]] = {True: [], False: []}
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox",
                                                                             "--disable-gpu"])
                for n in range(args.rounds):
                    for gzip in (False, True) if n % 2 else (True, False):
                        runs[gzip].append(_visit(browser, url, gzip, args.mbps, args.latency_ms))
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"first visit, {args.mbps:g} Mbit/s, {args.latency_ms:g} ms, medians of {args.rounds} visits each")
    med = {g: [statistics.median(r[i] for r in runs[g]) for i in range(3)] for g in runs}
    for name, i, unit in (("shell", 0, "s"), ("files", 1, "s"), ("MB", 2, "MB")):
        print(f"  {name:6s} gzipped {med[True][i]:6.2f} {unit:2s}  as on disk {med[False][i]:6.2f} {unit:2s}  "
              f"ratio {med[False][i] / med[True][i]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
