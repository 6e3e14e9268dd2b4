"""``companion waits``: the waits of hands between turns (聽牌).

    companion waits "45m234s789s77p kong:6666m@R pung:999p@O"
    companion waits --json --visible 3m3m < hands.txt      # one hand per line, one JSON object per line

Also holds the helpers the other analysis commands share (hand options, the JSON object of a hand).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.commands._io import print_json, run_batch, zh_reason
from companion.hand import DEFAULT_SETS, Hand
from companion.rules.shanten import shanten
from companion.rules.waits import structural_waits, wait_counts, wait_shapes, waits
from companion.tiles import Tile, parse_tiles


def add_hand_options(p: argparse.ArgumentParser, *, visible: bool = True) -> None:
    p.add_argument("hands", nargs="*", metavar="HAND",
                   help="a hand in the notation, e.g. '45m234s789s77p pung:999p@O' (none: one per stdin line)")
    p.add_argument("--sets", type=int, default=DEFAULT_SETS,
                   help="sets in a winning hand: 5 for 16-tile mahjong (default), 4 for 13-tile games")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of the text output")
    if visible:
        p.add_argument("--visible", default="", metavar="TILES",
                       help="tiles seen on the table (discards, others' melds): unseen copies per wait")


def read_visible(args: argparse.Namespace) -> tuple[Tile, ...] | None:
    """The ``--visible`` tiles, or None after reporting a bad value."""
    try:
        return parse_tiles(args.visible)
    except ValueError as e:
        print(f"companion: --visible: {zh_reason(e)} / {e}", file=sys.stderr)
        return None


def hand_object(hand: Hand, visible: tuple[Tile, ...] | None, with_visible: bool) -> dict[str, Any]:
    """``{"hand", "shanten", "waits"[, "unseen"]}``; waits only for a hand between turns."""
    obj: dict[str, Any] = {"hand": str(hand), "shanten": shanten(hand)}
    if hand.is_waiting_size:
        found = waits(hand)
        obj["waits"] = [t.code for t in found]
        if with_visible:
            obj["unseen"] = {t.code: n for t, n in wait_counts(hand, visible or ())}
    return obj


def describe_waits(hand: Hand, visible: tuple[Tile, ...], with_visible: bool, lang: str) -> str:
    """One line: the waits with their shapes (and unseen copies), or why the hand is not ready."""
    zh = lang == "zh"
    found = wait_counts(hand, visible)
    if not found:
        exhausted = [t for t in structural_waits(hand)]
        if exhausted:
            names = " ".join(t.zh if zh else t.code for t in exhausted)
            return (f"未聽牌：{names} 四張都在自己手上" if zh
                    else f"not ready: all four {names} are in your own hand")
        s = shanten(hand)
        return f"未聽牌（{s} 向聽）" if zh else f"not ready ({s} step{'s' if s > 1 else ''} from ready)"
    parts = []
    for t, unseen in found:
        shapes = "/".join(s.name_in(lang) for s in wait_shapes(hand, t))
        name = f"{t.zh}({t.code})" if zh else t.code
        left = (f" 剩{unseen}張" if zh else f" {unseen} left") if with_visible else ""
        parts.append(f"{name}[{shapes}]{left}")
    head = "聽" if zh else "waits"
    single = (" 獨聽" if zh else " (single wait)") if len(found) == 1 else ""
    return f"{head} " + " ".join(parts) + single


def register(sub: Any) -> None:
    p = sub.add_parser("waits", help="waits of a hand between turns / 聽什麼",
                       description="Show the real waits (聽牌) of 16-tile hands, with wait shapes.")
    add_hand_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    visible = read_visible(args)
    if visible is None:
        return 2
    with_visible = bool(args.visible.strip())

    def handle(text: str) -> None:
        hand = Hand.parse(text, sets=args.sets)
        if args.json:
            obj = hand_object(hand, visible, with_visible)
            if "waits" not in obj:
                waits(hand)  # raises the clear size error
            print_json(obj)
        else:
            print(f"{hand}  {describe_waits(hand, visible, with_visible, args.lang)}")

    return run_batch(args.hands, handle)
