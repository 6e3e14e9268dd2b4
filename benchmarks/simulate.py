"""Simulate many hands and report violations, event counts and speed (a benchmark, not a test).

    python benchmarks/simulate.py --hands 10000 --seed 1 [--switch multi_win=all]

Every event goes through the tracker's check; a refused event is a violation (the run continues and
counts them). The issue's bar: zero violations, every event type seen, >= 60% of hands won, and
>= 100 each of chow, pung, each kong kind, robbed kong, 再補 and passed wins.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from companion.game.events import EVENT_TYPES
from companion.game.simulator import Simulator
from companion.game.switches import Switches

THRESHOLDS = {"Chowed": 100, "Punged": 100, "ExposedKong": 100, "AddedKong": 100, "ConcealedKong": 100,
              "PassedWin": 100}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--switch", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--json", help="also write the report here")
    args = ap.parse_args(argv)
    data: dict[str, object] = {}
    for item in args.switch:
        k, _, v = item.partition("=")
        data[k] = json.loads(v) if v in ("true", "false") or v.isdigit() else v
    sim = Simulator(args.seed, Switches.from_mapping(data, strict=True), strict=False)
    t0 = time.perf_counter()
    events = 0
    for _ in sim.run(args.hands):
        events += 1
    dt = time.perf_counter() - t0
    st = sim.stats
    robbed = st.details["win:robbed_kong"]
    again = st.details["再補"]
    report = {
        "hands": st.hands, "events": events, "seconds": round(dt, 1), "hands_per_second": round(st.hands / dt, 1),
        "events_per_second": round(events / dt), "violations": len(st.violations),
        "win_rate": round(st.wins / max(st.hands, 1), 3),
        "event_counts": dict(st.events.most_common()), "details": dict(st.details.most_common()),
        "missing_event_types": sorted(set(EVENT_TYPES) - set(st.events)),
    }
    short = {k: st.events[k] for k, need in THRESHOLDS.items() if st.events[k] < need}
    if robbed < 100:
        short["robbed kong"] = robbed
    if again < 100:
        short["再補"] = again
    report["below_threshold"] = short
    text = json.dumps(report, ensure_ascii=False, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    for v in st.violations[:5]:
        print("violation:", v, file=sys.stderr)
    win_rate = st.wins / max(st.hands, 1)
    ok = not st.violations and not report["missing_event_types"] and not short and win_rate >= 0.6
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
