"""``companion demo``: analyse a few bundled example hands and explain them in Chinese and English, then read and
score a bundled photo of a laid-down winning hand (``companion score`` on it; ``--no-photo`` skips it).

    companion demo              # both languages
    companion demo --lang en
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from importlib import resources
from typing import Any

from companion.commands._io import add_lang_option
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
        "自己的槓用掉了聽牌",
        "A wait used up by one's own kong",
        "45m 兩面本來聽 三萬、六萬；但四張六萬都在自己的槓裡，真正只聽三萬，算獨聽。",
        "45m is two-sided on 3m and 6m, but all four 6m sit in the player's own kong: the only real wait "
        "is 3m, a single wait.",
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
        "先打孤張：三張字牌各只有一張，九筒旁邊也沒有七筒、八筒，打其中哪一張進張都一樣多；留下能連成順子的數牌。",
        "Discard a lone tile first: the three honours are single, and the 9p has no 7p or 8p beside it; each of the "
        "four leaves as many tiles that improve the hand. Keep the suited tiles that can grow into chows.",
    ),
    Example(
        "45m345p678p123s999s55z7z",
        "聽牌前的最後一步",
        "One discard from ready",
        "打掉紅中就聽 36 萬兩面；打別張都至少還差一向聽。",
        "Discarding the red dragon leaves a two-sided 3m-6m wait; any other discard leaves the hand at "
        "least 1 useful draw from ready.",
    ),
)


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="analyse example hands and explain them / 分析範例牌並解說",
                       description="Analyse a few bundled example hands and explain them, then score a bundled "
                                   "photo of a winning hand. / 分析幾手範例牌並說明，再計算一張內附胡牌照片的台數。")
    add_lang_option(p, "language of the output", "輸出語言", both=True)
    p.add_argument("--no-photo", action="store_true", help="skip scoring the bundled photo of a winning hand / 不計算範例照片")
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
        options = discard_options(hand)
        ties = sum((o.ranked_shanten, o.unseen) == (options[0].ranked_shanten, options[0].unseen) for o in options)
        for rank, option in enumerate(options[:max(3, ties)], 1):  # every one as good as the best (a review)
            lines.append(f"   {rank}. {option.reason(lang)}")
    lines.append("   " + (example.note_zh if zh else example.note_en))
    return lines


PHOTO_TITLE = {"zh": "== 拍照算台：一手攤開的胡牌（companion score）==",
               "en": "== Scoring a photographed winning hand, laid down (companion score) =="}


def score_bundled_photo(langs: tuple[str, ...]) -> None:
    """Read and score the bundled photo of a laid-down winning hand (rendered by ``training/render_demo_hand.py``;
    its context, which a photo cannot show, from the JSON beside it), as ``companion score`` prints it."""
    from companion.commands.score import photo_result, print_text
    from companion.rules.profiles import load_profile
    from companion.vision.hand_score import score_photo
    from companion.vision.image_file import read_image
    from companion.vision.read import TileReader

    folder = resources.files("companion") / "assets" / "demo"
    truth = json.loads((folder / "win_hand.json").read_text(encoding="utf-8"))
    context = {k: v for k, v in truth.items() if k not in ("concealed", "win_tile", "melds", "flowers")}
    with resources.as_file(folder / "win_hand.jpg") as path:
        dets = TileReader().read(read_image(str(path)), tiled=True)
    profile = load_profile(None)
    found = score_photo(dets, context, profile)
    result = photo_result("win_hand.jpg", dets, found, None, profile)
    for lang in langs:
        print(PHOTO_TITLE[lang])
        print_text(result, found, lang)
        print()


def run(args: argparse.Namespace) -> int:
    langs = ("zh", "en") if args.lang == "both" else (args.lang,)
    for example in EXAMPLES:
        for lang in langs:
            print("\n".join(explain(example, lang)))
        print()
    if not args.no_photo:
        try:
            score_bundled_photo(langs)
        except (OSError, ValueError) as e:  # a model or asset that cannot be used: the rest of the demo stands
            zh, en = f"無法計算範例照片的台數（{e}）", f"the bundled photo could not be scored: {e}"
            print(f"companion demo: {zh if args.lang == 'zh' else en if args.lang == 'en' else f'{en} / {zh}'}",
                  file=sys.stderr)
            return 1
    return 0
