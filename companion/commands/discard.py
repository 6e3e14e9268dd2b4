"""``companion discard``: which tile to discard from a drawn hand, best first, and why (牌效).

    companion discard "12478m3569p23788s157z"
    companion discard --lang en --top 3 --visible 1z1z "45m345p678p123s999s55z7z"
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.commands._io import complain, print_json, run_batch
from companion.commands.waits import (
    DRAWN,
    add_hand_options,
    check_sets,
    check_visible,
    pairs_note,
    read_visible,
)
from companion.hand import Hand
from companion.rules.efficiency import DiscardOption, KongOption, discard_options, kong_options
from companion.rules.shanten import shanten
from companion.rules.waits import holds_eight_flowers

COMPLETE_ZH = "這手牌已經胡了：宣告胡牌，不用打牌。若不胡，下面是各種打法："
COMPLETE_EN = "This hand is already complete: declare the win, no discard needed. If you play on, the discards:"
FLOWERS_ZH = "八張花都到齊：已經胡了（八仙過海，照自摸算），宣告胡牌，不用打牌。若不胡，下面是各種打法："
FLOWERS_EN = ("All eight flowers: already a win (Eight flowers, settled as a self-draw): declare it, no "
              "discard needed. If you play on, the discards:")


def register(sub: Any) -> None:
    p = sub.add_parser("discard", help="ranked discards of a drawn hand / 打哪張",
                       description="Rank every discard of a 17-tile hand by shanten and improving tiles. / "
                                   "依向聽數與進張排出 17 張手牌每一種打牌的優劣。")
    add_hand_options(p, example=DRAWN)
    p.add_argument("--top", type=int, default=0, metavar="N",
                   help="show only the N best options (0, the default: all) / "
                        "只列出最好的 N 種打法（預設 0：全部）")
    p.set_defaults(func=run)


def option_object(o: DiscardOption, lang: str) -> dict[str, Any]:
    return {
        "discard": o.discard.code,
        "shanten": o.shanten,
        "improvements": {i.tile.code: i.unseen for i in o.improvements},
        **({"dead_waits": [t.code for t in o.dead_waits]} if o.dead_waits else {}),
        "ranked_shanten": o.ranked_shanten,  # as the options are ranked: a ready hand on dead waits counts as 1
        "unseen": o.unseen,
        "reason": o.reason(lang),
    }


def kong_object(k: KongOption, lang: str) -> dict[str, Any]:
    return {"kong": k.tile.code, "added": k.added, "better": k.better, "shanten": k.shanten,
            "improvements": {i.tile.code: i.unseen for i in k.improvements}, "reason": k.reason(lang)}


KONG_ZH, KONG_EN = "也可以槓（槓完補一張）：", "Or make a kong (a replacement draw follows):"


def _say_kongs(kongs: tuple[KongOption, ...], lang: str) -> None:
    """The kongs, each marked ``*`` where it beats every discard."""
    print("     " + (KONG_ZH if lang.startswith("zh") else KONG_EN))
    for k in kongs:
        print(f"{'*' if k.better else '-':>4} {k.reason(lang)}")


def run(args: argparse.Namespace) -> int:
    if args.top < 0:
        complain("companion discard", args.lang, f"--top 是要列出的選項數（0：全部），收到 {args.top}",
                 f"--top is how many options to show (0: all), got {args.top}")
        return 2
    if not check_sets(args):
        return 2
    visible = read_visible(args)
    if visible is None:
        return 2

    def handle(text: str) -> None:
        hand = Hand.parse(text, sets=args.sets)
        check_visible(hand, visible, args.visible)
        options = discard_options(hand, visible)
        if args.top > 0:
            options = options[: args.top]
        complete = hand.is_drawn_size and shanten(hand) == -1
        flowers = holds_eight_flowers(hand)  # a win whatever the tiles (it advised a discard "the best choice")
        # the kongs the hand may make instead, as My hand offers them (a review: the command ranked "discard 1m,
        # the best choice" where the app said the concealed kong of 1m is as good and a draw more)
        kongs = kong_options(hand, visible)
        if args.json:
            print_json({"hand": str(hand), "complete": complete,  # (the shape: shanten's JSON says the same)
                        **({"eight_flowers": True} if flowers else {}),
                        "options": [option_object(o, args.lang) for o in options],
                        "kongs": [kong_object(k, args.lang) for k in kongs]})
            return
        print(hand)
        if flowers:
            print("     " + (FLOWERS_ZH if args.lang.startswith("zh") else FLOWERS_EN))
        elif complete:  # a teaching tool must not advise breaking a winning hand
            print("     " + (COMPLETE_ZH if args.lang.startswith("zh") else COMPLETE_EN))
        elif pairs_note(hand, args.lang.startswith("zh")):  # a hand of pairs is no win here (My hand says it too)
            print("     " + pairs_note(hand, args.lang.startswith("zh")).lstrip("。. "))
        better = any(k.better for k in kongs)
        if better:  # a kong as near ready and a draw more comes before "the best choice" of the discards
            _say_kongs(kongs, args.lang)
        for rank, o in enumerate(options, 1):
            print(f"{rank:3d}. {o.reason(args.lang)}")
        if kongs and not better:
            _say_kongs(kongs, args.lang)

    return run_batch(args.hands, handle, args.lang)
