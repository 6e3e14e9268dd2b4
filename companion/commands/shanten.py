"""``companion shanten``: how far hands are from ready (向聽數).

    companion shanten "12478m3569p23788s157z"
    companion shanten --json < hands.txt
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.commands._io import print_json, run_batch
from companion.commands.waits import (
    add_hand_options,
    check_sets,
    check_visible,
    describe_waits,
    hand_object,
    pairs_note,
    read_visible,
    won_by_flowers,
)
from companion.hand import Hand
from companion.rules.efficiency import from_ready
from companion.rules.shanten import shanten
from companion.rules.waits import holds_eight_flowers


def register(sub: Any) -> None:
    p = sub.add_parser("shanten", help="tiles from ready / 離聽牌還差幾張（向聽數）",
                       description="Exact shanten of hands with 16 or 17 tiles: -1 complete, 0 ready (17 tiles: "
                                   "one discard from ready). / 16 或 17 張手牌離聽牌還差幾張（確切的向聽數："
                                   "-1 已胡牌，0 聽牌，17 張時 0 是打一張就聽牌）。")
    add_hand_options(p)
    p.set_defaults(func=run)


def describe(hand: Hand, lang: str) -> str:
    """The shanten in words. A drawn hand (17 tiles) at 0 is not ready yet: one discard makes it ready."""
    s = shanten(hand)
    drawn = hand.is_drawn_size
    if lang == "zh":
        if s == 0 and drawn:
            return "打一張就聽牌"
        # in words, as the discard advice says them (a teaching review read "5 向聽" above "五向聽"; a language
        # review: 「聽牌 (0)」's bare number means nothing to a player, and 向聽 alone is jargon to many Taiwanese ones)
        return "已胡牌" if s == -1 else "聽牌" if s == 0 else from_ready(s)[0]
    if s == 0 and drawn:
        return "one discard from ready"
    # as waits, discard and My hand say it (efficiency.from_ready): "1 useful draw from ready" (it said "1 step from
    # ready" beside waits' useful draws, a teaching review); in words, as the Chinese (a review: "ready (0)" and
    # "complete (-1)", bare numbers a beginner is not told the meaning of)
    return "complete" if s == -1 else "ready" if s == 0 else from_ready(s)[1]


def run(args: argparse.Namespace) -> int:
    if not check_sets(args):
        return 2
    visible = read_visible(args)
    if visible is None:
        return 2
    with_visible = bool(args.visible.strip())

    def handle(text: str) -> None:
        hand = Hand.parse(text, sets=args.sets)
        check_visible(hand, visible, args.visible)
        if args.json:
            print_json(hand_object(hand, visible, with_visible))
            return
        line = f"{hand}  {describe(hand, args.lang)}"
        s = shanten(hand)
        if hand.is_waiting_size and s == 0:
            line += "  " + describe_waits(hand, visible, with_visible, args.lang)  # (which tells of the flowers)
        else:
            if s >= 0:  # not complete: a hand of pairs is no win in this game, as My hand says
                line += pairs_note(hand, args.lang == "zh")
            if holds_eight_flowers(hand):  # (the text said "5 steps from ready" where the JSON said eight_flowers)
                line += won_by_flowers(args.lang == "zh")
        print(line)

    return run_batch(args.hands, handle, args.lang)
