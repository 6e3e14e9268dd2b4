"""``companion replay FILE``: replay an event log, print the table after each event and the ledger.

Exits 1 naming the event (line, type and reason in zh/en) when the log holds an illegal event.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.game.check import step
from companion.game.events import EventError
from companion.game.history import passed_wins
from companion.game.service import read_jsonl
from companion.game.session import fewest_transfers, ledger_of, session_ledgers, total_balances
from companion.game.state import TableState
from companion.game.text import IllegalEvent
from companion.game.view import render_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="replay an event log (JSON lines) and print the table and the ledger "
                                      "/ 重播牌局紀錄")
    p.add_argument("file", help="a log written by `companion simulate` or exported by the table service")
    p.add_argument("--lang", choices=("zh", "en", "both"), default="both")
    p.add_argument("--quiet", action="store_true", help="print only the final table and the ledger")
    p.add_argument("--show-hands", action="store_true", help="show concealed hands (teaching)")
    p.add_argument("--json", action="store_true", help="print the ledger as JSON")
    p.add_argument("--passed", action="store_true", help="list the wins passed up (過水) where hands are known")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as f:
            events, _private = read_jsonl(f)
    except OSError as bad:
        print(f"companion replay: cannot read {args.file}: {bad.strerror} / 無法讀取 {args.file}", file=sys.stderr)
        return 2
    except EventError as bad:
        print(f"companion replay: {args.file}: {bad}", file=sys.stderr)
        return 2
    if not events:
        print(f"companion replay: {args.file}: no events to replay (the log is empty) / 記錄是空的", file=sys.stderr)
        return 1
    state = TableState()
    for line, e in events:
        try:
            state = step(state, e)
        except IllegalEvent as err:
            print(f"companion replay: {args.file}: line {line}: illegal event {type(e).__name__}: {err}",
                  file=sys.stderr)
            return 1
        if not args.quiet:
            print(f"#{state.log_len - 1} {type(e).__name__} ({e.source.value})")  # its own place in the log
            print(render_table(state, args.lang, args.show_hands))
    if args.quiet:
        print(render_table(state, args.lang, args.show_hands))
    if args.passed:
        print("== 過水 / passed wins ==")
        names = state.players or tuple(f"seat {i}" for i in range(4))
        for c in passed_wins([e for _, e in events]):
            how = "報過水/declared" if c.declared else "未申報/not declared"
            print(f"  #{c.index} {names[c.seat]} {c.tile.code} ({c.tile.zh}) ← {names[c.giver]}: {how}")
    if not state.players:
        return 0
    ledger = ledger_of(state)
    if args.json:
        print(json.dumps(ledger.to_json(), ensure_ascii=False, indent=1))
        return 0
    print("\n== 帳 / ledger ==")
    for p, v in ledger.balances.items():
        print(f"  {p}: {v:+d}")
    print("== 誰付誰 / who pays whom ==")
    for t in ledger.settle_up():
        print(f"  {t.payer} → {t.payee}: {t.amount}")
    ledgers = session_ledgers(state)
    if len(ledgers) > 1:
        total = total_balances(ledgers)
        print(f"== {len(ledgers)} 將合計 / {len(ledgers)} sessions in all ==")
        for p, v in total.items():
            print(f"  {p}: {v:+d}")
        for t in fewest_transfers(total):
            print(f"  {t.payer} → {t.payee}: {t.amount}")
    return 0
