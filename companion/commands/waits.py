"""``companion waits``: the waits of hands between turns (聽牌).

    companion waits "45m234s789s77p kong:6666m@R pung:999p@O"
    companion waits --json --visible 3m3m < hands.txt      # one hand per line, one JSON object per line

Also holds the helpers the other analysis commands share (hand options, the JSON object of a hand).
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.app.words import ui
from companion.commands._io import OptionError, add_lang_option, complain, print_json, run_batch, zh_reason
from companion.english import all_four
from companion.hand import DEFAULT_SETS, Hand, parse_seen
from companion.rules.efficiency import from_ready
from companion.rules.shanten import shanten
from companion.rules.waits import (
    holds_eight_flowers,
    pairs_note_due,
    structural_waits,
    wait_counts,
    wait_shapes,
    waits,
)
from companion.tiles import NUM_KINDS, Tile, counts34

WAITING = "45m234s789s77p kong:6666m@R pung:999p@O"
"""A hand between turns (16 tiles with its melds), the help's example of waits and shanten."""
DRAWN = "45m234s789s77p5p kong:6666m@R pung:999p@O"
"""The same hand after a draw (17), the help's example of discard."""


def add_hand_options(p: argparse.ArgumentParser, *, visible: bool = True, example: str = WAITING) -> None:
    p.add_argument("hands", nargs="*", metavar="HAND",
                   help=f"a hand in the notation, e.g. '{example}': 1-9 m/p/s for the suits, 1-7z for East South "
                        "West North White Green Red, 1-8f the flowers; a meld as kind:tiles@L/O/R (chow, pung or pong, "
                        "kong, addkong, ckong; who gave the tile: left, opposite, right); Chinese names work too (一萬二萬三萬"
                        "東東東, or 一二三萬); none: one per stdin line / "
                        f"一手牌的寫法，例如 '{example}'：萬筒條 m/p/s，1-7z 是東南西北白發中，1-8f 是花；吃碰槓寫成 "
                        "種類:牌@L/O/R（chow 吃、pung 或 pong 碰、kong 明槓、addkong 加槓、ckong 暗槓；上家、對家、下家給的）；"
                        "也可以寫中文（一萬二萬三萬東東東，或 一二三萬）；不給：標準輸入每行一手")
    p.add_argument("--sets", type=int, default=DEFAULT_SETS,
                   help="sets in a winning hand: 5 for 16-tile mahjong (default), 4 for 13-tile games / "
                        "胡牌要幾組面子：十六張麻將 5（預設），十三張 4")
    p.add_argument("--json", action="store_true", help="one JSON object per line / 每行輸出一個 JSON 物件")
    add_lang_option(p, "language of the text output", "文字輸出的語言")
    if visible:
        p.add_argument("--visible", default="", metavar="TILES",
                       help="tiles seen on the table (discards, others' melds): unseen copies per wait / "
                            "桌上看得到的牌（打出的牌、別家的吃碰槓）：算每種聽牌還剩幾張")


def _prog(args: argparse.Namespace) -> str:
    command = getattr(args, "command", None)
    return f"companion {command}" if command else "companion"


def check_sets(args: argparse.Namespace) -> bool:
    """Whether ``--sets`` is usable; a bad value is reported (naming the flag) before any hand is read."""
    if 1 <= args.sets <= MAX_SETS:
        return True
    complain(_prog(args), args.lang,
             f"--sets 是胡牌要湊的組數，1 到 {MAX_SETS}（十六張麻將 5，十三張 4；一手 3 × 組數 + 2 張要放得進 136 張牌），"
             f"收到 {args.sets}",
             f"--sets is the number of sets in a winning hand, 1 to {MAX_SETS} (5 for 16-tile mahjong, 4 for 13-tile "
             f"games; a hand of 3 x sets + 2 tiles must fit in the 136 tiles), got {args.sets}")
    return False


MAX_SETS = (136 - 2) // 3
"""The most sets a hand can hold: 3 a set and a pair, out of the 136 tiles (a review gave 100 and was answered)."""


def read_visible(args: argparse.Namespace) -> tuple[Tile, ...] | None:
    """The ``--visible`` tiles, or None after reporting a bad value."""
    try:
        return parse_seen(args.visible)
    except ValueError as e:
        complain(_prog(args), args.lang, f"--visible「{args.visible}」：{zh_reason(e)}",
                 f"--visible “{args.visible}”: {e}")
        return None


def check_visible(hand: Hand, visible: tuple[Tile, ...], option_value: str) -> None:
    """Raise :class:`OptionError` (``--visible``) when the hand and the visible tiles together hold more than
    four copies of a kind, saying how many are in each."""
    own, seen = hand.own_counts(), counts34(visible)
    for k in range(NUM_KINDS):
        n = own[k] + seen[k]
        if n > 4:
            t = Tile(k)
            raise OptionError(
                "--visible", option_value,
                f"{n} copies of {t.code}, {own[k]} in the hand and {seen[k]} in --visible: a set holds only 4",
                f"{t.zh}手牌有 {own[k]} 張、--visible 有 {seen[k]} 張，共 {n} 張，一副牌只有 4 張",
            )


def hand_object(hand: Hand, visible: tuple[Tile, ...] | None, with_visible: bool) -> dict[str, Any]:
    """``{"hand", "shanten", "waits", "shapes", "single_wait", "in_hand"[, "dead_wait"][, "unseen"]}``; the waits
    only for a hand between turns: ``shapes`` each wait's shapes (``two_sided``, ``edge``, ``closed``, ``single``,
    ``double_pung``), ``single_wait`` whether one kind wins (獨聽), ``in_hand`` the tiles a shape waits on that are
    all four in the hand (what the text says; a review found the JSON without them), ``dead_wait`` only for a ready
    hand (absent when not ready): true when every copy waited on is in sight (死聽, what the text says; the JSON
    showed it only as ``unseen`` all 0)."""
    obj: dict[str, Any] = {"hand": str(hand), "shanten": shanten(hand)}
    if hand.is_waiting_size:
        found = waits(hand)
        obj["waits"] = [t.code for t in found]
        obj["shapes"] = {t.code: [shape.value for shape in wait_shapes(hand, t)] for t in found}
        obj["single_wait"] = len(found) == 1
        obj["in_hand"] = [t.code for t in structural_waits(hand) if t not in set(found)]
        counts = wait_counts(hand, visible or (), found)
        if found:
            obj["dead_wait"] = not any(n for _, n in counts)
        if with_visible:
            obj["unseen"] = {t.code: n for t, n in counts}
    if holds_eight_flowers(hand):
        obj["eight_flowers"] = True
    return obj


def won_by_flowers(zh: bool) -> str:
    """What a hand holding all eight flowers is told, after what its tiles do (:func:`holds_eight_flowers`)."""
    return "；八張花都到齊：已經胡了（八仙過海）" if zh else "; all eight flowers: already a win (Eight flowers)"


def describe_waits(hand: Hand, visible: tuple[Tile, ...], with_visible: bool, lang: str) -> str:
    """One line: the waits with their shapes (and unseen copies), or why the hand is not ready."""
    said = _describe_waits(hand, visible, with_visible, lang)
    return said + won_by_flowers(lang == "zh") if holds_eight_flowers(hand) else said


def _describe_waits(hand: Hand, visible: tuple[Tile, ...], with_visible: bool, lang: str) -> str:
    zh = lang == "zh"
    found = wait_counts(hand, visible)
    if not found:
        exhausted = [t for t in structural_waits(hand)]
        if exhausted:
            own_zh, own_en = all_four([t.zh for t in exhausted], [t.said_en for t in exhausted])
            return f"未聽牌：{own_zh}都在自己手上" if zh else f"not ready: {own_en} are in your own hand"
        # in the words shanten and discard say it (efficiency's one phrase): 還差兩張才聽（二向聽） / "2 useful draws
        # from ready" (a review read 「3 向聽」; then 「還差兩張才聽，二向聽」 beside shanten's: a change review)
        far_zh, far_en = from_ready(shanten(hand))
        return (f"未聽牌：{far_zh}" if zh else f"not ready: {far_en}") + _four_honours(hand, zh) + pairs_note(hand, zh)
    parts = []
    for t, unseen in found:
        # the Chinese's slash full-width, as the app writes 兩面／雙碰 (it read 〔兩面/雙碰〕: a change review)
        shapes = ("／" if zh else "/").join(s.name_in(lang) for s in wait_shapes(hand, t))
        # full-width brackets in the Chinese, as the rest of it writes them (a language review read 三萬(3m)[兩面])
        name = f"{t.zh}（{t.code}）" if zh else t.said_en
        # always, as My hand shows them (spec §3.5: the player's own copies are seen; without --visible it said none)
        left = f"剩 {unseen} 張" if zh else f" {unseen} left"
        parts.append(f"{name}〔{shapes}〕{left}" if zh else f"{name} [{shapes}]{left}")
    head = "聽" if zh else "waits"
    single = ("，獨聽" if zh else " (single wait)") if len(found) == 1 else ""
    # a shape's other tile that is all in the hand: why a two-sided shape is a single wait (a review's puzzle)
    real = {t for t, _ in found}
    gone = [t for t in structural_waits(hand) if t not in real]
    if gone:
        own_zh, own_en = all_four([t.zh for t in gone], [t.said_en for t in gone])
        single += f"（{own_zh}都在自己手上）" if zh else f" ({own_en} are in your own hand)"
    if with_visible and not any(unseen for _, unseen in found):  # 死聽, as My hand says it ("0 left" said no more)
        single += ui("dead_wait").text(lang)
    # one wait from the next, 、 in the Chinese, a comma in the English (it read "3p[two-sided] 4 left 6p[two-sided]
    # 4 left", run together: a change review)
    return f"{head} " + ("、" if zh else ", ").join(parts) + single


def _four_honours(hand: Hand, zh: bool) -> str:
    """What My hand adds to a hand not ready holding four of an honour concealed: they can be no pung plus one
    (spec §3.1), a concealed kong or a discard (the CLI said only how far from ready, a review)."""
    counts = hand.concealed_counts()
    said = [ui("four_honours_held", tile=t.zh, tile_en=t.said_en)
            for t in (Tile(k) for k in range(NUM_KINDS)) if counts[t] == 4 and t.is_honour]
    return "".join(w.zh if zh else w.en for w in said)


def pairs_note(hand: Hand, zh: bool) -> str:
    """What My hand adds to a hand of seven pairs or more that is not ready (or, drawn, not complete): no pairs win
    in this game (a player from a 七對 game read only "4 useful draws from ready" from the commands). Not beside
    all eight flowers, a win already (it said "no seven- or eight-pairs win" before it: a change review)."""
    return ui("pairs_not_win").text("zh" if zh else "en") if pairs_note_due(hand) else ""


def register(sub: Any) -> None:
    p = sub.add_parser("waits", help="waits of a hand between turns / 聽什麼",
                       description="Show the real waits of 16-tile hands, with wait shapes. / "
                                   "列出十六張手牌真正的聽牌與聽牌型。",
                       epilog="--json: a ready hand's object holds dead_wait, true when every copy waited on is in "
                              "sight (dead wait), absent when the hand is not ready / "
                              "--json：聽牌的手有 dead_wait，要等的牌都已經出現（死聽）時為 true；未聽牌時沒有這個欄位")
    add_hand_options(p)
    p.set_defaults(func=run)


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
            obj = hand_object(hand, visible, with_visible)
            if "waits" not in obj:
                waits(hand)  # raises the clear size error
            print_json(obj)
        else:
            print(f"{hand}  {describe_waits(hand, visible, with_visible, args.lang)}")

    return run_batch(args.hands, handle, args.lang)
