"""``companion demo``: analyse a few bundled example hands and explain them in Chinese and English.

    companion demo              # both languages
    companion demo --lang en
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from companion.commands.shanten import describe as describe_shanten
from companion.commands.waits import describe_waits
from companion.hand import Hand
from companion.rules.efficiency import discard_options


@dataclass(frozen=True, slots=True)
class Example:
    hand: str
    title_zh: str
    title_en: str
    note_zh: str
    note_en: str


EXAMPLES = (
    Example(
        "45m234s789s77p kong:6666m@R pung:999p@O 1f",
        "自己的槓用掉了聽牌（規則 §7 例 14）",
        "A wait used up by one's own kong (rules §7 Example 14)",
        "45m 兩面本來聽 三萬、六萬；但四張六萬都在自己的槓裡，真正只聽三萬，算獨聽。",
        "45m is two-sided on 3m and 6m, but all four 6m sit in the player's own kong: the only real wait "
        "is 3m, a single wait (獨聽).",
    ),
    Example(
        "1112345678999m123p",
        "九蓮寶燈形：一手聽九張",
        "The nine-gates shape: nine waits at once",
        "1112345678999 同一門，不管摸到哪一張萬子都能胡；同一張牌可看成不同的聽牌形狀。",
        "With 1112345678999 in one suit, every character tile wins; one tile can complete different "
        "wait shapes depending on how the hand is split.",
    ),
    Example(
        "13m345p678p123s999s55z",
        "中洞：只聽一張",
        "A closed wait: one tile only",
        "1m 和 3m 中間缺 2m，只有二萬能補成順子。",
        "1m and 3m lack the 2m between them: only 2m completes the chow.",
    ),
    Example(
        "12478m3569p23788s157z",
        "剛摸牌、還很散的手：先打哪張？",
        "A scattered hand just after a draw: what to discard first?",
        "先打孤張的字牌，留下能連成順子的數牌，進張最多。",
        "Discard a lone honour first and keep the suited tiles that can grow into chows: it leaves the "
        "most tiles that improve the hand.",
    ),
    Example(
        "45m345p678p123s999s55z7z",
        "聽牌前的最後一步",
        "One discard from ready",
        "打掉紅中就聽 36 萬兩面；打別張都至少還差一向聽。",
        "Discarding the red dragon leaves a two-sided 3m-6m wait; any other discard leaves the hand at "
        "least one step from ready.",
    ),
)


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="analyse example hands and explain them / 範例",
                       description="Analyse a few bundled example hands and explain them (zh + en).")
    p.add_argument("--lang", choices=("zh", "en", "both"), default="both")
    p.set_defaults(func=run)


def explain(example: Example, lang: str) -> list[str]:
    """The lines that explain one example in one language."""
    hand = Hand.parse(example.hand)
    zh = lang == "zh"
    lines = [f"== {example.title_zh if zh else example.title_en} ==", f"   {hand}"]
    if hand.is_waiting_size:
        lines.append("   " + describe_waits(hand, (), False, lang))
    else:
        lines.append("   " + describe_shanten(hand, lang))
        for rank, option in enumerate(discard_options(hand)[:3], 1):
            lines.append(f"   {rank}. {option.reason(lang)}")
    lines.append("   " + (example.note_zh if zh else example.note_en))
    return lines


def run(args: argparse.Namespace) -> int:
    langs = ("zh", "en") if args.lang == "both" else (args.lang,)
    for example in EXAMPLES:
        for lang in langs:
            print("\n".join(explain(example, lang)))
        print()
    return 0
