"""``companion score PHOTO…``: score a photographed winning hand, laid down.

    companion score win.jpg                       # self-drawn, East everywhere: assumed and said
    companion score win.jpg --discarder S --seat W --round S --streak 1 --lang en
    companion score win.jpg --win-tile 3s --flag last_tile --json   # 海底撈月; --flag 海底 alike
    companion score win.jpg --tile 2.5=7p --concealed             # the fifth tile of row 2 is a 7p; nothing called
    companion score win.jpg --rob-kong --discarder N --win-tile 3s # 搶槓: North's added kong of 3s robbed
    companion score win.jpg --win-type seven_flowers_rob --discarder S  # 七搶一: South showed the eighth flower

Lay the hand down as at the table: the concealed tiles in one row, the melds in a row of their own in front of it
(a claimed tile may lie sideways, a concealed kong with tiles face down; a face-up kong is taken as exposed unless
``--kong`` says otherwise; a row apart is taken as called melds, said where nothing else marks it so, with the tai
of the hand concealed; ``--concealed`` says nothing was called), the flowers anywhere, and, if you like,
the winning tile a little apart at one end of the row. The reader finds every tile (as ``companion read``),
decides which row is the concealed one and cuts the others into melds, tries the classifier's other readings
where the hand as read is no legal win (each change reported), and scores the hand as ``companion tai`` does:
itemised tai, dealer tai, who pays what. Without a marked winning tile every possible one is scored and the
best taken, with the others' tai said. What the photo cannot show (how the hand was won, the winds, the dealer)
comes from the options or ``--context`` (the fields of ``companion tai``'s input); what is missing is assumed
and said. The winds are the winner's as seen from the dealer, who is East under the default rules (莊家坐東, spec
§2.15): ``--dealer`` other than E is for a rule set that seats the winds otherwise, and refused under the default.
``--json`` prints one object per photo: the tai result of ``companion tai`` plus ``hand``, ``repairs``,
``win_tiles``, ``doubts`` (a doubt's ``way_out``, where it has one: ``concealed``, said by ``--concealed``), ``file``, and ``warnings`` and ``quality`` as ``companion read`` gives them (a shaken,
black-and-white or one-colour photo, or one whose tiles are too small, whose tiles may be misread: the text output says it after the hand, and a refusal adds it to
its reason). A photo that cannot be scored is reported with its name (with ``--json``, as
``{"file": ..., "error": {"message": ..., "message_zh": ...}}``, the shape ``companion read`` and ``companion
classify`` give, plus ``reading``, the tiles as read, and for a script to build ``--tile`` from: ``tiles``, each as
``--tile`` numbers it (``{"at": "1.15", "tile": "9s", "score": 0.87}``, ``"unsure"``/``"corrected"``/``"added": true``
where so: ``added``, a tile ``--add`` gave), ``check``, the tiles the refusal names (``{"at", "tile"}``, ``"could_be"``: the kinds that would make a win;
left out where it names none) and ``way_out`` (``correct_tile``, ``closer``, ``blank_kong``, ``none``: a hand
refused; a ``--tile`` that names no tile of the photo has ``tiles`` only, its message saying why); and beside ``error`` ``warnings`` and
``quality``, where the photo was read) and the others are still scored
(exit code 1); a bad option is refused naming it (exit code 2).

A tile read wrong is put right with ``--tile ROW.N=TILE``: the text output lists the tiles as read numbered so
(``2.5=7p`` is the fifth tile of the second row from the top; flowers lying apart from the rows are ``f.1``…, and
flowers in a row of their own are numbered as a row), a refusal too, and ``--annotate`` writes each tile's number
under it. The numbers are one photo's: ``--tile`` with several photos is refused.
The ``win`` of ``--json`` is ``companion tai``'s input: ``companion score win.jpg --json | jq -c .win | companion
tai --explain`` scores it again there (edit it between); the notation printed after "Hand:" is not its input.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.commands._io import OptionError, add_lang_option, bad_threads, print_json, say
from companion.commands.read import (
    FAULT_EN,
    FAULT_ZH,
    annotate_refused,
    annotation_path,
    calibration_hint,
    read_with,
)
from companion.commands.tai import explain, parse_stakes, scored_result
from companion.files import json_error_zh, loads_json
from companion.hand import HandError, MeldKind, is_bare_kong
from companion.rules._win_json import MAX_STREAK
from companion.rules.profiles import ProfileError, load_profile
from companion.rules.settlement import Stakes
from companion.rules.win import (
    Win,
    WinInputError,
    WinType,
    parse_wind,
    win_type_named,
    win_type_zh,
    wind_letter,
)
from companion.tiles import NotationError, Tile, format_tiles, parse_tile

if TYPE_CHECKING:
    from companion.vision.hand_score import PhotoHandError


def _hand_zh(win: Win) -> str:
    """A hand refused as no win, for the Chinese half: its tiles in the notation, said to be notation (to retype
    into ``companion tai``), and how it was won in words, not the English keywords (a wording review read
    「不是胡牌：… eight_flowers：」)."""
    if win.win_tile is None:
        how = win_type_zh(win.win_type)
    else:
        how = {WinType.SELF_DRAW: "自摸", WinType.ROB_KONG: "搶槓胡"}.get(win.win_type, "胡") + win.win_tile.zh
    return f"手牌記法：{win.hand()}，{how}"


def register(sub: Any) -> None:
    p = sub.add_parser("score", help="score a photographed winning hand / 計算照片中胡牌的台數",
                       description="Score a photographed winning hand, laid down. / 計算照片中攤開的胡牌的台數與付款。")
    p.add_argument("photos", nargs="+", metavar="PHOTO", help="photos of a laid-down winning hand / 攤開的胡牌照片")
    # E, S, W, N in either case, or the Chinese names (南, 南風) as `tai`'s JSON takes them (a review's --seat 南 was
    # refused where "seat_wind": "南" was taken)
    wind = {"type": _wind_name, "metavar": "{E,S,W,N}"}
    p.add_argument("--discarder", **wind, help=f"the seat whose discard won, {_WINDS_EN} (default: self-drawn) / "
                                               f"放槍的座位，{_WINDS_ZH}（預設：自摸）")
    p.add_argument("--seat", **wind, help=f"the winner's seat wind, {_WINDS_EN} (default E) / 胡牌者的門風，{_WINDS_ZH}（預設東）")
    p.add_argument("--round", **wind, help=f"the round wind, {_WINDS_EN} (default E) / 圈風，{_WINDS_ZH}（預設東）")
    p.add_argument("--dealer", **wind, help=f"the dealer's seat wind, {_WINDS_EN} (default E; always E where the rule set counts the "
                                            "winds from the dealer, as the default does) / "
                                            f"莊家的門風，{_WINDS_ZH}（預設東；規則從莊家算門風時一定是東，預設就是）")
    p.add_argument("--streak", type=int, help="the dealer's streak N (default 0) / 莊家連莊數（預設 0）")
    p.add_argument("--win-tile", help="the winning tile, when it is not set apart in the photo, or not in it (e.g. 3s) / "
                                      "胡的那張（照片裡沒分開擺、或沒拍到時）")
    p.add_argument("--kong", action="append", default=[], metavar="TILE=KIND",
                   help="a face-up kong that was added (5p=addkong) or a concealed one turned up (5p=ckong); "
                        "others are taken as exposed (kong); 5z=kong: four tiles together that read face down are "
                        "blank white dragons / 朝上的槓是加槓或翻開的暗槓時指定，其餘當明槓；5z=kong：讀成蓋著的四張是牌面空白的白板")
    p.add_argument("--tile", action="append", default=[], metavar="ROW.N=TILE",
                   help="correct a tile as read: tile N of row ROW, numbered as the output lists them (2.5=7p; "
                        "f.1=1f for a flower lying apart from the rows, flowers in a row of their own are numbered as "
                        "a row), repeatable / 改正讀錯的牌：第 ROW 列第 N 張，編號照輸出列的（例如 2.5=7p；和各列分開擺"
                        "的花用 f.1=1f，自成一列的花照列編號），可重複")
    p.add_argument("--add", action="append", default=[], metavar="TILE",
                   help="a tile the photo's reading missed (no box on it), scored with the hand: a flower joins the "
                        "flowers, any other tile the hand's own row; repeatable (e.g. --add 2f) / 補上照片漏讀的牌"
                        "（沒有框到的），一起計分：花加到花牌，其他牌加到手牌那一列；可重複（例如 --add 2f）")
    p.add_argument("--concealed", action="store_true",
                   help="nothing was called (門清): every row is the hand's own tiles, however the rows lie (a "
                        "concealed kong shows tiles face down) / 沒有吃、碰、明槓或加槓（門清）：不管怎麼排，每一列都是自己的手牌"
                        "（暗槓要蓋著兩頭）")
    p.add_argument("--flag", action="append", default=[], metavar="NAME",
                   help="a flag of the win, repeatable: " + ", ".join(f"{k} ({v})" for k, v in FLAGS.items()) + " / "
                        "胡牌的旗標，可重複：" + "、".join(f"{k}（{v}）" for k, v in FLAGS.items()))
    p.add_argument("--rob-kong", action="store_true",
                   help="the winning tile was robbed from a kong (--win-type rob_kong); --discarder names the seat "
                        "whose kong it was / 搶槓胡（同 --win-type rob_kong）：用 --discarder 指定被搶槓的那家")
    p.add_argument("--win-type", type=_win_type_name, choices=list(WIN_TYPES), metavar="TYPE",
                   help="how the hand was won: " + ", ".join(f"{k} ({v[0]})" for k, v in WIN_TYPES.items())
                        + "; the Chinese name is taken too / 怎麼胡的："
                        + "、".join(f"{k}（{v[1]}）" for k, v in WIN_TYPES.items()) + "；也可以寫中文名稱")
    p.add_argument("--context", default="{}",
                   help="more of the win as a JSON object of companion tai's fields (flags, win_type...) / "
                        "其他胡牌條件（companion tai 的 JSON 欄位）")
    p.add_argument("--profile", help="profile id or a .toml house file (default atawmj_2009) / 規則代號或自家 .toml 規則檔"
                   "（預設 atawmj_2009）")
    p.add_argument("--stakes", help="the stakes, base/per tai, e.g. 30/10: a 3-tai hand pays 30 + 3 x 10 / "
                                    "底與每台金額，例如 30/10：3 台的牌付 30 + 3 × 10")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per photo, with \"warnings\" and \"quality\" as companion read gives them "
                        "(a shaken, black-and-white or one-colour photo, or tiles too small), also beside the \"error\" of "
                        "a photo read but not scored; that \"error\" has \"tiles\" (each {\"at\": \"1.15\", \"tile\": "
                        "\"9s\", \"score\": 0.87}, as --tile numbers them), \"check\" (the tiles it names, with "
                        "\"could_be\": the kinds that would make a win; left out where it names none) and \"way_out\" "
                        "(correct_tile, closer, blank_kong, win_tile: the winning tile is not in the photo, "
                        "\"waits\" the tiles the hand waits on, for --win-tile; none), to build --tile from, where the "
                        "hand was refused "
                        "(a --tile that names no tile of the photo: \"tiles\" only); a doubt's \"way_out\": concealed (--concealed) / "
                        "每張照片輸出一行 JSON，含 companion read 的 warnings 與 quality"
                        "（照片晃到、黑白或單色、牌太小），讀得到但無法計分的照片也在 error 旁附上；"
                        "那個 error 另有 tiles（照 --tile 的編號，每張 {\"at\": \"1.15\", \"tile\": \"9s\", \"score\": "
                        "0.87}）、check（它點名要檢查的牌，could_be 是能胡的牌；沒點名就省略）與 way_out"
                        "（correct_tile、closer、blank_kong、win_tile：照片裡沒有胡的那張，waits 是這手聽的牌，可用"
                        " --win-tile 指定；none），手牌被拒時可用來組 --tile"
                        "（--tile 指到照片裡沒有的牌時只有 tiles）；doubts 的 way_out 為 concealed 時請加 --concealed")
    add_lang_option(p, "language of the text output", "輸出語言")
    p.add_argument("--annotate", metavar="OUT.png",
                   help="write the photo with the hand as scored drawn on it, a legend below (a photo over 40 MP "
                        "at the size it is read at, which the legend says) / 輸出標註後的照片，下方附圖例（超過 4000 萬畫素"
                        "的照片以讀取時縮小的尺寸畫出，圖例會註明）")
    p.add_argument("--set", dest="tile_set", help="calibrated tile set to use (default: the selected one) / 使用的已校正牌組")
    p.add_argument("--no-calibration", action="store_true", help="ignore calibrations / 不用校正")
    p.add_argument("--threads", type=int, default=2, help="onnxruntime threads of the detector and the classifier (default 2) / 辨識用的執行緒數")
    p.set_defaults(func=run)


def context_of(args: argparse.Namespace) -> dict[str, Any]:
    """The win's context (``companion tai``'s fields without the tiles) from ``--context`` and the options, which
    win over it."""
    try:
        ctx = loads_json(args.context)
    except json.JSONDecodeError as e:  # said in words, not the parser's "Expecting value: line 1 column 1 (char 0)"
        word = args.context.strip().strip("'\"")
        flag_en, flag_zh = (f"; a flag is given as --flag {_flag_name(word)}", f"；旗標請用 --flag {_flag_name(word)}") \
            if _flag_name(word) else ("", "")
        raise OptionError("--context", args.context,
                          f"--context {args.context}: not JSON (wrong from character {e.colno}): write an object of "
                          f"companion tai's fields in braces, names in double quotes, e.g. "
                          f"'{{\"win_type\": \"discard\"}}'{flag_en}",
                          f"--context 不是有效的 JSON（第 {e.colno} 個字元起{json_error_zh(e)}）：請用大括號寫 companion tai "
                          f"的欄位，名稱加雙引號，例如 '{{\"win_type\": \"discard\"}}'{flag_zh}") from None
    if not isinstance(ctx, dict):
        raise OptionError("--context", args.context,
                          "--context: expected a JSON object", "--context 要是 JSON 物件 {...}")
    tiles = sorted({"concealed", "melds", "flowers", "win_tile", "profile", "stakes", "id"} & set(ctx))
    if tiles:
        raise OptionError("--context", args.context,
                          f"--context: {tiles[0]} comes from the photo or its own option, not --context",
                          f"--context：{tiles[0]} 由照片或它自己的選項決定，不能寫在 --context")
    if args.streak is not None and args.streak < 0:  # named as the option typed (it said the JSON field "streak")
        raise OptionError("--streak", str(args.streak),
                          f"--streak {args.streak}: N must be 0 or more", f"--streak {args.streak}：連莊數 N 不能小於 0")
    if args.streak is not None and args.streak > MAX_STREAK:  # (a review's typo paid 200,001 dealer tai unsaid)
        raise OptionError("--streak", str(args.streak),
                          f"--streak {args.streak}: more than {MAX_STREAK} hands in a row as dealer is surely a typo: "
                          "check the number", f"--streak {args.streak}：連莊超過 {MAX_STREAK} 把應該是打錯了：請檢查這個數字")
    for name in getattr(args, "flag", []):
        known = _flag_name(name)
        if known is None:
            raise OptionError("--flag", name, f"--flag {name}: no such flag; the flags: "
                              + ", ".join(f"{k} ({v})" for k, v in FLAGS.items()),
                              f"--flag {name}：沒有這個旗標；可用的旗標：" + "、".join(f"{k}（{v}）" for k, v in FLAGS.items()))
        flags = ctx.setdefault("flags", {})
        if isinstance(flags, dict):  # (one that is no object is refused as --context's)
            flags[known] = True
    for key, value in (("seat_wind", args.seat), ("round_wind", args.round), ("dealer", args.dealer),
                       ("streak", args.streak)):
        if value is not None:
            ctx[key] = value
    kind = getattr(args, "win_type", None)
    if getattr(args, "rob_kong", False):  # (--win-type rob_kong's shorthand)
        if kind not in (None, WinType.ROB_KONG.value):
            raise OptionError("--win-type", kind, f"--rob-kong and --win-type {kind} say two ways the hand was won: "
                              "give one", f"--rob-kong 和 --win-type {kind} 說了兩種胡法：只能給一種")
        kind = WinType.ROB_KONG.value
    if kind is not None:
        ctx["win_type"] = kind
    if args.discarder is not None:
        ctx["discarder"] = args.discarder
        ctx.setdefault("win_type", "discard")
        none = _NO_PAYER.get(str(ctx["win_type"]))
        if none is not None:  # said as the option typed (a review read "a eight_flowers win has no discarder
            # (null)", the JSON field's words)
            raise OptionError("--discarder", args.discarder, *none)
    payer = _PAYER.get(str(ctx.get("win_type")))
    if payer is not None and ctx.get("discarder") is None:  # named as the option to give, not the JSON field (a
        # review read "discarder: a rob_kong win needs the seat that pays")
        raise OptionError("--discarder", "", *payer)
    return ctx


WIN_TYPES = {"self_draw": ("self-drawn, the default", "自摸，預設"),
             "discard": ("on a discard, as --discarder alone says", "胡別人打出的牌，單給 --discarder 就是"),
             "rob_kong": ("robbing a kong, as --rob-kong says; --discarder: whose kong", "搶槓胡，同 --rob-kong；"
                          "--discarder 是被搶槓的那家"),
             "eight_flowers": ("eight flowers", "八仙過海"),
             "seven_flowers_rob": ("seven flowers robbing the eighth; --discarder: who showed it",
                                   "七搶一；--discarder 是亮出第八張花的那家")}
"""The ways of winning ``--win-type`` takes (the app's Photo form's; the names of ``companion tai``'s ``win_type``),
each said (English, Chinese)."""

_PAYER = {"rob_kong": ("a win robbing a kong needs --discarder SEAT: the seat whose kong was robbed pays",
                       "搶槓胡要用 --discarder 座位 指定被搶槓的那家（由他付）"),
          "seven_flowers_rob": ("a seven-flowers win robbing the eighth needs --discarder SEAT: the seat that showed "
                                "the eighth flower pays", "七搶一要用 --discarder 座位 指定亮出第八張花的那家（由他付）")}
"""The ways of winning one seat pays for besides a discard, with what is said where ``--discarder`` is missing."""


def _win_type_name(word: str) -> str:
    """The way of winning ``word`` names (its name, any case, or its Chinese one: 七搶一, 搶槓 for 搶槓胡), as
    `companion tai`'s ``win_type`` takes it; as given where it names none of :data:`WIN_TYPES` (argparse refuses it,
    listing the names)."""
    kind = win_type_named(word)
    return kind.value if kind is not None and kind.value in WIN_TYPES else word


_WINDS_EN = "E S W N or East South West North"
_WINDS_ZH = "E S W N、East South West North 或 東 南 西 北"
"""The winds a wind option takes, as its help says them (it named E S W N and 東 南 西 北, not the English names
taken since: a change review)."""


def _wind_name(word: str) -> str:
    """The letter of the wind ``word`` names: E, S, W or N in either case (full-width too), its English name (South),
    1z-4z, or its Chinese name (南, 南風), as `companion tai`'s JSON takes it (:func:`parse_wind`). A word that names none is refused by argparse, saying the
    winds in both languages (:mod:`companion.cli`)."""
    try:
        return wind_letter(parse_wind(word, "wind"))
    except WinInputError:
        raise argparse.ArgumentTypeError(  # (all it takes, as the Chinese says: it named E S W N alone, a review)
            f"expected a wind, E, S, W or N, its English name (East, South, West, North), 1z-4z or its Chinese name, "
            f"got “{word}”") from None  # (the English names taken since, said: it read as a gloss, a change review)


FLAGS = {"last_tile": "海底撈月", "last_discard": "河底撈魚", "after_kong": "槓上開花",
         "after_flower": "補花後補進的牌，算槓上開花", "heavenly": "天胡", "earthly": "地胡", "human": "人胡", "ready_declared": "報聽",
         "ready_on_deal": "天聽", "ready_first_discard": "地聽"}
"""The flags ``--flag`` sets, by ``companion tai``'s name or their Chinese one (the kong of a discard's replacement,
``replacement_after``, goes in ``--context``). A flower's replacement is named as the app names it, as the win it
scores (spec kong_bloom: 槓上開花 covers it; it read 花上開花 here, a language review), which is still taken."""
FLAGS_ALSO = {"花上開花": "after_flower"}
"""Other Chinese names ``--flag`` takes."""


def flag_said(bad: WinInputError, args: argparse.Namespace) -> tuple[str, str]:
    """A win refused (English, Chinese), naming ``--flag NAME`` where the flag it names was given so, not the JSON
    field (a review's ``--flag last_discard`` on a self-draw was refused as "flags.last_discard: …")."""
    name = bad.field.removeprefix("flags.")
    if bad.field == "discarder":  # the option that gives it, not the JSON field
        return f"--discarder: {bad.reason}", f"--discarder：{bad.zh}"
    if bad.field.startswith("flags.") and name in {_flag_name(w) for w in getattr(args, "flag", [])}:
        return f"--flag {name}: {bad.reason}", f"--flag {name}：{bad.zh}"
    return str(bad), bad.message_zh


def _flag_name(word: str) -> str | None:
    """The flag ``word`` names (its name, any case, or its Chinese one: 海底撈月, or 海底 alone), or None."""
    word = word.strip()
    if word.lower() in FLAGS:
        return word.lower()
    if word in FLAGS_ALSO:
        return FLAGS_ALSO[word]
    return next((k for k, v in FLAGS.items() if word and (word == v or (len(word) >= 2 and v.startswith(word)))), None)


def _dealer_fits(context: dict[str, Any], profile: Any) -> None:
    """Under a rule set that counts the seat winds from the dealer (dealer_east, spec §2.15) the dealer is East:
    ``--dealer N`` there says two different tables at once, refused before any photo is read."""
    dealer = context.get("dealer", "E")
    if profile.switch("seat_wind") == "dealer_east" and parse_wind(dealer, "dealer") is not Tile.EAST:
        raise OptionError("--dealer", str(dealer),
                          f"--dealer {dealer}: rule set {profile.id} counts the seat winds from the dealer, so the "
                          "dealer is East; give --seat and --discarder as seen from the dealer",
                          f"--dealer {dealer}：{profile.id} 的門風從莊家算起（莊家坐東），莊家一定是東；"
                          "請以莊家為東來給 --seat 與 --discarder")


def _win_tile(text: str | None) -> Tile | None:
    if text is None:
        return None
    try:
        tile = parse_tile(text)
    except NotationError as e:
        raise OptionError("--win-tile", text, f"--win-tile: {e}", f"--win-tile 看不懂「{text}」：{e.zh}") from None
    if not tile.is_known or tile.is_flower:
        raise OptionError("--win-tile", text, f"--win-tile: {tile.code} cannot be a winning tile",
                          f"--win-tile：{tile.code} 不能是胡的那張")
    return tile


def kongs_of(items: list[str]) -> dict[Tile, MeldKind]:
    """``--kong 5p=addkong`` ... as {tile: kind}."""
    out = {}
    for item in items:
        code, sep, kind_text = item.partition("=")
        try:
            tile = parse_tile(code.strip())
            # a bare 槓 is asked which kong, as in a meld (it was read as an exposed one, 2 tai less than a concealed)
            kind = MeldKind.parse(kind_text, sourced=None) if sep else None
        except HandError as e:
            if is_bare_kong(kind_text):
                raise OptionError("--kong", item, f"--kong {item}: {e}", f"--kong {item}：{e.zh}") from None
            kind = None
            tile = Tile.UNKNOWN
        except NotationError:
            kind = None
            tile = Tile.UNKNOWN
        if kind is None or not kind.is_kong or not tile.is_known or tile.is_flower:
            raise OptionError("--kong", item,
                              f"--kong {item}: expected TILE=addkong, TILE=ckong or TILE=kong, e.g. 5p=addkong",
                              f"--kong {item}：要寫成 牌=addkong（加槓）、牌=ckong（暗槓）或 牌=kong（明槓），例如 5p=addkong")
        out[tile] = kind
    return out


def _reader(args: argparse.Namespace) -> Any:
    from companion.vision import calibration
    from companion.vision.read import TileReader

    cal = calibration.chosen(args.tile_set, enabled=not args.no_calibration)
    return TileReader(detector_threads=args.threads, classifier_threads=args.threads, calibration=cal)


def run(args: argparse.Namespace) -> int:
    from companion.vision.hand_score import check_context  # (here: every command loads this module, a review)

    lang = args.lang
    try:
        bad = bad_threads(args.threads)
        if bad:
            raise OptionError("--threads", str(args.threads), *bad)
        context = context_of(args)
        profile = load_profile(args.profile)
        check_context(context, profile)  # (a wind that is none is refused here, by name)
        _dealer_fits(context, profile)
        stakes = parse_stakes(args.stakes)
        win_tile = _win_tile(args.win_tile)
        kongs = kongs_of(args.kong)
        corrections = tiles_of(args.tile)
        added = added_of(args.add)
        for option, given in (("--win-tile", [args.win_tile] if args.win_tile else []), ("--kong", args.kong)):
            if given and len(args.photos) > 1:  # one hand's, as --tile (a review's every photo got them, silently)
                raise OptionError(option, given[0], *_ONE_PHOTO[option](given[0], len(args.photos)))
        if added and len(args.photos) > 1:  # one hand's tiles, as --tile
            raise OptionError("--add", args.add[0],
                              f"--add {args.add[0]}: --add adds a tile to one photo's hand, and {len(args.photos)} "
                              "photos were given: score the photo it belongs to alone",
                              f"--add {args.add[0]}：--add 只能把牌補進一張照片的手牌，這裡給了 {len(args.photos)} "
                              "張照片：請只給它那一張照片")
        if corrections and len(args.photos) > 1:  # its numbers are one photo's (a review's second photo was scored
            # with the first one's correction, silently)
            raise OptionError("--tile", args.tile[0],
                              f"--tile {args.tile[0]}: --tile corrects a tile of one photo, and {len(args.photos)} "
                              "photos were given: score the photo it belongs to alone",
                              f"--tile {args.tile[0]}：--tile 只能改正一張照片的牌，這裡給了 {len(args.photos)} "
                              "張照片：請只給它那一張照片")
        refused = annotate_refused(args.annotate, args.photos) if args.annotate is not None else None
        if refused:  # before any photo is read: no drawing that cannot be written, no photo drawn over
            raise OptionError("--annotate", args.annotate, *refused)
        reader = _reader(args)
    except OptionError as e:
        print(f"companion score: {say(lang, e.zh, str(e))}", file=sys.stderr)
        return 2
    except ProfileError as e:
        print(f"companion score: {say(lang, e.zh, str(e))}", file=sys.stderr)
        return 2
    except WinInputError as e:  # --stakes, or a context no hand could be scored with
        print(f"companion score: {say(lang, *reversed(flag_said(e, args)))}", file=sys.stderr)
        return 2
    except ValueError as e:  # a model file or calibration that cannot be used: the message names it
        en, sep, zh = str(e).rpartition(" / ")  # (its own Chinese where it has some: a review got only the gist)
        en, zh = (en, zh) if sep else (str(e), f"無法使用這個模型檔或校正（{e}）")
        print(f"companion score: {say(lang, zh, en)}", file=sys.stderr)
        return 2
    if reader.classifier.calibration is None and not args.no_calibration:
        print(f"companion score: {calibration_hint(lang)}", file=sys.stderr)
    elif reader.classifier.calibration is not None:
        print(f"companion score: {read_with(reader.classifier.calibration.name, lang)}", file=sys.stderr)
    failed = 0
    for n, photo in enumerate(args.photos, 1):
        failed += not _one(args, reader, photo, context, stakes, (win_tile, kongs), profile, n, corrections, added)
    return 1 if failed else 0


def _one(args: argparse.Namespace, reader: Any, photo: str, context: dict[str, Any], stakes: Stakes | None,
         said: tuple[Tile | None, dict[Tile, MeldKind]], profile: Any, n: int,
         corrections: list[Correction] | None = None, added: list[Tile] | None = None) -> bool:
    """Score one photo and print it; False when it could not be scored (reported). ``added``: the tiles the player
    says the reading missed (``--add``), added before the corrections, so the tiles are numbered as listed."""
    import cv2

    from companion.rules.scoring import NotAWin
    from companion.vision.hand_photo import NoPlaceToAdd, with_added
    from companion.vision.hand_score import PhotoHandError, WinTileUnseen, score_photo
    from companion.vision.image_file import ImageFileError, full_size, read_image, too_small
    from companion.vision.quality import photo_quality
    from companion.vision.read import TOO_DARK_EN, TOO_DARK_ZH, too_dark

    quality = None  # (until the photo is read: a refusal of a photo read carries it, as a hand scored does)
    fixed = frozenset(f"{row}.{n}" for row, n, _, _ in corrections or [])  # marked in the tiles as read
    extra: frozenset[int] = frozenset()  # the detections of the tiles --add gave (marked so too)
    try:
        image = read_image(photo, reduce_large=True)  # a 48-200 MP phone photo is read at a half, a quarter…
        small = too_small(image.shape[1], image.shape[0])  # said in --lang, as read and classify refuse it (the
        if small:  # detector's refusal came in both languages whatever --lang asked: a review)
            raise ImageFileError(Path(photo), *small)
        dets = reader.read(image, tiled=True)
        quality = photo_quality(image, dets)  # a shaken or black-and-white photo is misread: said with the hand
        if added:  # tiles the reader missed (a flower's tai was lost, silently: a review), numbered as listed
            extra = frozenset(range(len(dets), len(dets) + len(added)))
            dets = with_added(dets, added)
        dets = corrected(dets, corrections or [])  # the player's own reading of a tile (--tile ROW.N=TILE)
        # a kong of 5z named: four backs lying together may be it, where a set's 白板 is blank (said when refused)
        found = score_photo(dets, context, profile, *said, blank_white=Tile.Z5 in said[1], concealed=args.concealed)
    except ImageFileError as e:  # the reason alone, in both languages (a review read the decoder's own words in
        # the English, and no "cannot read" before it)
        return _failed(args, photo, f"cannot read this photo: {e.en}", f"無法讀取這張照片：{e.zh}")
    except cv2.error:  # (OpenCV's text names its build path, not the photo's trouble: a review)
        return _failed(args, photo, FAULT_EN.format(file=photo), FAULT_ZH.format(file=photo))
    except NoPlaceToAdd as e:  # (a photo with no row of tiles)
        return _failed(args, photo, f"--add {e.tile.code}: {e}", f"--add {e.tile.code}：{e.zh}", quality=quality)
    except TileOptionError as e:  # a --tile that names no tile of this photo
        tiles = numbered_tiles(dets, added=extra)
        failed = _failed(args, photo, str(e), e.zh, {"tiles": tiles} if tiles else None, quality=quality)
        if not args.json and (listed := numbered_text(dets, args.lang)):  # the tiles numbered as --tile names them
            print(listed, file=sys.stderr)
        return failed
    except PhotoHandError as e:
        en, zh = advised(e, dets, corrections or [])  # (a hand his --tile made no win: said of them, a review)
        if too_dark(image):  # the light may be the reason, not the hand (a review's dark photo: "found 2 tiles")
            en, zh = f"{en}; {TOO_DARK_EN}", f"{zh}；{TOO_DARK_ZH}"
        en, zh = _with_warnings(en, zh, quality)
        more = {**({"reading": e.reading[0]} if e.reading else {}), **refusal_fields(e, dets, fixed, extra)}
        failed = _failed(args, photo, en, zh, more, quality)
        # the tiles as --tile names them; no --tile example where the way out is the winning tile (a review)
        if not args.json and (listed := numbered_text(dets, args.lang, fixed,
                                                      _exact(e, dets) or _checked_example(e, dets),
                                                      e.way_out.value != "win_tile", extra)):
            print(listed, file=sys.stderr)  # (none for a photo with no tile found, or only backs: no header alone)
        if args.annotate:  # the reading refused is what the player needs to see (a review found no picture then)
            _annotate(args, image, dets, None, n, fixed, e.check)
        return failed
    except WinInputError as e:
        en, zh = flag_said(e, args)
        if isinstance(e, WinTileUnseen):  # one way out or the other, as options (a review read "so it was a
            # discard" and "if it was self-drawn" in one message)
            en, zh = (f"the winning tile named, {e.tile.code}, is not in the photo: give --discarder SEAT (E S W N), "
                      "or --win-type self_draw if it was self-drawn and left out of the photo",
                      f"指定胡的那張{e.tile.zh}不在照片裡：請加 --discarder 座位（E S W N），"
                      "若是自摸、只是沒拍進照片，請加 --win-type self_draw")
        if e.field == "flags.replacement_after" and "needs that kong among the melds" in en:  # a face-up kong reads
            # as exposed: say how to name it (a review was not told)
            en += "; a face-up kong in the photo is taken as exposed: --kong TILE=addkong or =ckong says what it was"
            zh += "；照片裡亮著的槓當作明槓：用 --kong 牌=addkong 或 =ckong 說明它是哪一種"
        return _failed(args, photo, en, zh, quality=quality)
    except NotAWin as e:  # the hand named in both languages, as the English does (a review read only the reason in
        # Chinese)
        return _failed(args, photo, *_with_warnings(str(e), f"不是胡牌（{_hand_zh(e.win)}）：{e.reason_zh}", quality),
                       quality=quality)
    except ValueError as e:
        return _failed(args, photo, str(e), f"無法計算這張照片的台數（{e}）", quality=quality)
    kongs = {m.tile for m in found.win.melds if m.kind.is_kong}
    for tile in sorted(set(said[1]) - kongs):  # said, not dropped in silence (a review's --kong 5p)
        zh = f"{photo}：--kong {tile.code}：讀到的手牌沒有{tile.zh}的槓，這個選項不用"
        en = f"{photo}: --kong {tile.code}: the hand read has no kong of {tile.code}; ignored"
        print(f"companion score: {say(args.lang, zh, en)}", file=sys.stderr)
    size = full_size(photo)  # boxes in the photo's own pixels, as companion read gives them
    shown = dets if size[0] == image.shape[1] else dets.scaled(size[0] / image.shape[1], size)
    result = {**photo_result(photo, shown, found, stakes, profile), **quality.to_json()}
    if args.json:
        print_json({k: v for k, v in result.items() if not k.startswith("_")})
    else:
        print_text(result, found, args.lang, numbered_text(dets, args.lang, fixed, added=extra))
    return _annotate(args, image, dets, found, n, fixed) if args.annotate else True


def _with_warnings(en: str, zh: str, quality: Any) -> tuple[str, str]:
    """A refusal's reason with what is wrong with the photo (:class:`companion.vision.quality.PhotoQuality`) after
    it: a shaken or black-and-white photo may be why its hand reads as no win. A shaken photo is said first: the cure
    is another photo (a review's blurred one led with "found 8 tiles … a winning hand shows 17")."""
    for code, more_en, more_zh in quality.warnings():
        if code == "no_tiles":  # (the refusal says no tile was found, and what to photograph)
            continue
        if code == "shaken":
            en, zh = f"{more_en}; {en}", f"{more_zh}；{zh}"
        else:
            en, zh = f"{en}; {more_en}", f"{zh}；{more_zh}"
    return en, zh


def _failed(args: argparse.Namespace, photo: str, en: str, zh: str, more: dict[str, Any] | None = None,
            quality: Any = None) -> bool:
    """Say that ``photo`` could not be scored; ``more``: fields for the JSON error (the photo as read); ``quality``
    (:class:`companion.vision.quality.PhotoQuality`, where the photo was read): the JSON line's ``quality`` and
    ``warnings``, as a scored photo's line has them (a change review found them only in the message's words)."""
    en = en if photo in en else f"{photo}: {en}"
    zh = zh if photo in zh else f"{photo}：{zh}"  # (the JSON's Chinese named no file: a review)
    if args.json:
        print_json({"file": photo, "error": {"message": en, "message_zh": zh, **(more or {})},
                    **(quality.to_json() if quality is not None else {})})
    print(f"companion score: {say(args.lang, zh, en)}", file=sys.stderr)
    return False


def photo_result(photo: str, dets: Any, found: Any, stakes: Stakes | None, profile: Any) -> dict[str, Any]:
    """``companion tai``'s result object for the photo's hand (:func:`companion.commands.tai.scored_result`) with
    the photo's own fields: ``file``, ``hand`` (the tiles as read, in the notation), ``win`` (the whole win as
    ``companion tai`` takes it: edit it and score it again there), ``repairs`` (with their boxes), ``win_tiles``
    and ``doubts``."""
    xyxy = dets.xyxy
    win = found.win
    hand = {"concealed": format_tiles(win.concealed), "melds": [str(m) for m in win.melds],
            "flowers": format_tiles(win.flowers), "win_tile": win.win_tile.code if win.win_tile else None,
            "win_tile_set_apart": found.marked, "win_tile_named": found.named}
    repairs = [{**r.to_dict(), "xyxy": [round(float(v), 1) for v in xyxy[r.index]]} for r in found.repairs]
    return {**scored_result(win, found.score, stakes, profile), "file": photo, "hand": hand, "win": win.to_dict(),
            "repairs": repairs, "win_tiles": [{"tile": t.code, "tai": tai} for t, tai in found.win_tiles],
            "doubts": [{**d.to_dict(), **dict(zip(("message", "message_zh"), noted(d), strict=True))}
                       for d in found.doubts]}


def print_text(result: dict[str, Any], found: Any, lang: str, numbered: str = "") -> None:
    """The photo's hand as read, what was assumed or doubted, then the itemised tai and payments; ``numbered``: the
    tiles as read, numbered as ``--tile`` names them (:func:`numbered_text`)."""
    hand = result["hand"]
    label = {"zh": ("照片讀到", "手牌", "吃碰槓", "花", "胡", "（分開擺）", "（指定）"),
             "en": ("read from the photo", "concealed", "melds", "flowers", "win", " (set apart)", " (named)")}
    head, c, m, f, w, apart, named = label[lang]
    how = named if hand["win_tile_named"] else apart if hand["win_tile_set_apart"] and hand["win_tile"] else ""
    print(f"── {result['file']}")
    print(f"{head} — {c} {hand['concealed'] or '-'} ｜ {m} {' '.join(hand['melds']) or '-'} ｜ "
          f"{f} {hand['flowers'] or '-'} ｜ {w} {hand['win_tile'] or '-'}{how}")
    if numbered:
        print(numbered)
    for d in found.doubts:
        en, zh = noted(d)
        print(f"  ! {zh if lang == 'zh' else en}")
    for w in result.get("warnings", ()):  # a shaken or black-and-white photo: its tiles may be misread
        print(f"  ! {w['message_zh'] if lang == 'zh' else w['message']}")
    explain(result, lang, sys.stdout, None)
    received(result, lang)


def received(result: dict[str, Any], lang: str) -> None:
    """What the winner receives in all, after the payments (the JSON's ``total``; a review found it only there), in
    money, where the stakes are given: not the payments' tai added up, which read as the hand's (a review read a
    4-tai hand paid by three with the dealer's +3 as "15 tai")."""
    payments = result.get("payments") or []
    if not payments:
        return
    seat, total = payments[0]["payee"], result.get("total")
    if total is None:  # tai are the hand's, not added across payments (a review read a 4-tai hand's 15 as its tai)
        return
    zh, en = {"E": ("東", "East"), "S": ("南", "South"), "W": ("西", "West"), "N": ("北", "North")}[seat]
    print(f"{zh}家共收 {total}" if lang == "zh" else f"{en} receives {total} in all")


def _annotate(args: argparse.Namespace, image: Any, dets: Any, found: Any, n: int, fixed: frozenset[str] = frozenset(),
              check: tuple[int, ...] = ()) -> bool:
    """The photo with its reading drawn; ``found``: the hand as scored (its repairs and winning tile marked), None
    for a photo refused (the tiles as read), ``check``: the tiles its refusal names (framed orange, as the app frames
    them: a review's drawing did not show which); each tile's number as ``--tile`` names it (a player could not tell
    which tile 1.17 was), and those ``--tile`` gave (``fixed``: their places) in a colour of their own. False when
    the drawing could not be written (said): the run then fails, as ``companion read``'s does (a review's run said
    it and ended 0)."""
    import cv2

    from companion.vision.hand_score import hand_labels
    from companion.vision.image_file import ImageFileError, full_size
    from companion.vision.read import Marks, annotate

    names = hand_labels(dets, found) if found is not None else None
    places = {i: at for _, groups in _places(dets) for g in groups for at, i in g}
    marks = Marks(places, frozenset(check), frozenset(i for i, at in places.items() if at in fixed))
    out = annotation_path(args.annotate, n, len(args.photos))
    try:  # a 48-200 MP photo is drawn at the size it was read at: the legend says so
        size: tuple[int, int] | None = full_size(args.photos[n - 1])
    except (ImageFileError, OSError):
        size = None
    try:
        written = cv2.imwrite(str(out), annotate(image, dets, names, legend=True, full_size=size, marks=marks))
    except cv2.error:
        written = False
    if not written:
        print(f"companion score: {say(args.lang, f'無法寫入 {out}', f'cannot write {out}')}", file=sys.stderr)
    return bool(written)


# --- --tile: the player's own reading of a tile ------------------------------------------------------------

Correction = tuple[str, int, Tile, str]
"""One ``--tile ROW.N=TILE``: the row (its number, or ``f`` for the flowers), the tile's place in it (from 1), the
tile it is, and the option's value as typed (to name it in an error)."""

_TILE_OPTION = re.compile(r"^\s*(\d+|[fF])\s*\.\s*(\d+)\s*=\s*(\S+)\s*$")


class TileOptionError(ValueError):
    """A ``--tile`` that names no tile of the photo read (its rows are as they are only once it is read)."""

    def __init__(self, en: str, zh: str) -> None:
        super().__init__(en)
        self.zh = zh


def added_of(items: list[str]) -> list[Tile]:
    """``--add 2f`` ... as tiles; a value that is no tile's face is refused naming it."""
    out = []
    for item in items:
        try:
            tile = parse_tile(item.strip())
        except NotationError as e:
            raise OptionError("--add", item, f"--add {item}: {e}; name one tile, e.g. --add 2f",
                              f"--add {item}：{e.zh}；請寫一張牌，例如 --add 2f") from None
        if not tile.is_known:
            raise OptionError("--add", item, f"--add {item}: a tile's back is nothing to add: name its face, e.g. "
                              "--add 2f", f"--add {item}：牌背不能補：請寫牌面，例如 --add 2f")
        out.append(tile)
    return out


def tiles_of(items: list[str]) -> list[Correction]:
    """``--tile 2.5=7p`` ... as corrections; a value that is no ``ROW.N=TILE`` is refused naming it."""
    out: list[Correction] = []
    for item in items:
        m = _TILE_OPTION.match(item)
        try:
            tile = parse_tile(m.group(3)) if m else None
        except NotationError:
            tile = None
        if m is None or tile is None or int(m.group(2)) < 1 or (m.group(1).isdigit() and int(m.group(1)) < 1):
            raise OptionError("--tile", item,
                              f"--tile {item}: expected ROW.N=TILE, tile N of row ROW as the output numbers them, "
                              "e.g. 2.5=7p (f.1=1f for a flower lying apart from the rows)",
                              f"--tile {item}：要寫成 列.張=牌，照輸出的編號，例如 2.5=7p（和各列分開擺的花用 f.1=1f）")
        # row and place as numbers: 01.15 is tile 1.15 (a review's was refused as no row 1, and not caught twice)
        row, n = (str(int(m.group(1))) if m.group(1).isdigit() else "f"), int(m.group(2))
        twice = next((c for c in out if c[:2] == (row, n) and c[2] is not tile), None)
        if twice is not None:  # one tile named two ways: refused, not the last taken in silence (a review)
            raise OptionError("--tile", item,
                              f"--tile {twice[3]} and --tile {item} give tile {row}.{n} two values: "
                              "give it once",
                              f"--tile {twice[3]} 和 --tile {item} 把同一張牌 {row}.{n} 說成兩種牌：只能給一次")
        out.append((row, n, tile, item))
    return out


def _numbered_rows(dets: Any) -> list[tuple[str, list[list[int]]]]:
    """The photo's tiles as ``--tile`` numbers them: each row's (its number, its groups of detection indices), top
    to bottom, then the flowers laid apart as row ``f`` (face-down tiles in no group are not numbered)."""
    from companion.vision.hand_photo import lay_out

    laid = lay_out(dets)
    rows = [(str(r), [list(g.tiles) for g in row]) for r, row in enumerate(laid.rows, 1)]
    return rows + ([("f", [list(laid.flowers)])] if laid.flowers else [])


def corrected(dets: Any, corrections: list[Correction]) -> Any:
    """``dets`` with each tile the player corrected read as he says, for certain (not doubted, not repaired); a
    :class:`TileOptionError` for one that names no tile of the photo."""
    if not corrections:
        return dets
    rows = dict(_numbered_rows(dets))
    picks = {}
    for row, n, tile, item in corrections:
        tiles = [i for g in rows.get(row, []) for i in g]
        if not rows:  # nothing read to correct: no empty "(tiles a row, as read: )" (a review)
            raise TileOptionError(f"--tile {item}: no tile was found in the photo to correct",
                                  f"--tile {item}：照片裡沒找到可以改正的牌")
        if not 0 < n <= len(tiles):
            has_en, has_zh = _rows_said(rows)
            one_row = row != "f" and len([r for r in rows if r != "f"]) == 1  # (said once, not twice: a review)
            where_en = (f"{has_en}: there is no tile {row}.{n}" if one_row else
                        f"row {row} has {_tiles_en(len(tiles))} ({has_en})") if row in rows else \
                (f"no flowers lie apart from the rows: a row of flowers is numbered as the other rows ({has_en})"
                 if row == "f" else f"{has_en}: there is no row {row}")
            where_zh = (f"{has_zh}：沒有 {row}.{n} 這張牌" if one_row else
                        f"第 {row} 列只有 {len(tiles)} 張（{has_zh}）") if row in rows else \
                (f"沒有和各列分開擺的花牌：自成一列的花照其他列編號（{has_zh}）" if row == "f" else
                 f"{has_zh}：沒有第 {row} 列")
            raise TileOptionError(f"--tile {item}: {where_en}", f"--tile {item}：{where_zh}")
        picks[tiles[n - 1]] = tile
    return dets.corrected(picks)


def _tiles_en(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


def _rows_said(rows: dict[str, list[list[int]]]) -> tuple[str, str]:
    """The photo's rows as ``--tile`` numbers them, said (English, Chinese): "the photo has 2 rows of 2 and 17
    tiles" (a review read "the photo has 1 rows (tiles a row, as read: 1) 17)"), and the flowers lying apart."""
    sizes = [str(sum(map(len, g))) for r, g in rows.items() if r != "f"]
    listed = sizes[0] if len(sizes) == 1 else ", ".join(sizes[:-1]) + f" and {sizes[-1]}"
    en = f"the photo has {len(sizes)} row{'s' if len(sizes) != 1 else ''} of {listed} " \
         f"tile{'s' if sizes != ['1'] else ''}"
    zh = f"照片有 {len(sizes)} 列，" + ("、".join(sizes) + " 張" if len(sizes) == 1 else "各 " + "、".join(sizes) + " 張")
    if "f" in rows:
        n = sum(map(len, rows["f"]))
        en += f", and {n} flower{'s' if n != 1 else ''} apart (row f)"
        zh += f"，另有 {n} 張分開擺的花（f 列）"
    return en, zh


def _places(dets: Any) -> list[tuple[str, list[list[tuple[str, int]]]]]:
    """:func:`_numbered_rows` with each tile's place as ``--tile`` names it: each row's groups of (``"2.5"``, its
    detection index)."""
    out = []
    for row, groups in _numbered_rows(dets):
        n, numbered = 0, []
        for g in groups:
            numbered.append([(f"{row}.{n + k}", i) for k, i in enumerate(g, 1)])
            n += len(g)
        out.append((row, numbered))
    return out


def numbered_tiles(dets: Any, fixed: frozenset[str] = frozenset(),
                   added: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    """The tiles as ``--tile`` numbers them, for a script (the ``--json`` refusal's ``tiles``): each as ``{"at":
    "1.15", "tile": "9s", "score": 0.87}``, with ``"unsure": true`` where read unsure, ``"corrected": true``
    where ``--tile`` gave it (``fixed``: their places) and ``"added": true`` where ``--add`` gave it (``added``: its
    detections; the text output marks it "(added)", the JSON did not)."""
    doubtful = dets.doubtful()
    return [{"at": at, "tile": Tile(int(dets.kind[i])).code, "score": round(float(dets.score[i]), 2),
             **({"unsure": True} if doubtful[i] else {}), **({"corrected": True} if at in fixed else {}),
             **({"added": True} if i in added else {})}
            for _, groups in _places(dets) for g in groups for at, i in g]


def example(dets: Any, exact: list[str] | None = None) -> str:
    """A ``ROW.N=TILE`` of this photo, for the words that show how ``--tile`` is written (a review read "e.g. --tile
    2.5=7p" under a photo of one row): the refusal's exact one (``exact``, :func:`_exact`) where it has one, else
    its first unsure tile as its second reading, else the last tile of the first row as another tile than it reads
    (:func:`_another_reading`); ``"1.1=1m"`` where none is numbered."""
    if exact:
        return exact[0]
    doubtful = dets.doubtful()
    placed = [(at, i) for _, groups in _places(dets) for g in groups for at, i in g]
    for at, i in placed:
        if doubtful[i] and (nxt := _next_reading(dets, i, second_only=True)) is not None:
            return f"{at}={nxt.code}"
    first = [(at, i) for at, i in placed if at.split(".")[0] == (placed[0][0].split(".")[0] if placed else "")]
    if not first:
        return "1.1=1m"
    at, i = first[-1]
    return f"{at}={_another_reading(dets, i).code}"


def _next_reading(dets: Any, i: int, second_only: bool = False) -> Tile | None:
    """Tile ``i``'s next reading (among its top three, or its second only) that it can be put right as: a tile of
    its own sort (a flower as a flower only: a review's example, --tile f.8=3m, turned a flower into 3m), and not a
    flower read already (a flower read twice is another flower: one not read; a review's 7f read twice was shown
    "--tile f.7=1f", a flower read already)."""
    now = Tile(int(dets.kind[i]))
    read = {int(k) for k in dets.kind}
    for k in [int(k) for k in dets.top3_kind[i]][1 : 2 if second_only else None]:
        if k != int(now) and k in _TILE_VALUES and Tile(k).is_flower == now.is_flower and not (now.is_flower and k in read):
            return Tile(k)
    return None


def _another_reading(dets: Any, i: int) -> Tile:
    """Tile ``i`` as another tile than it reads, for a ``--tile`` example (never a tile as it already reads: a
    review's example changed nothing): its next reading (:func:`_next_reading`), else a flower not read (a flower),
    else 1f or 1m (2f for a 1f, 2m for a 1m)."""
    now = Tile(int(dets.kind[i]))
    read = {int(k) for k in dets.kind}
    one, two = (Tile.F1, Tile.F2) if now.is_flower else (Tile.M1, Tile.M2)
    spare = next((t for t in Tile if now.is_flower and t.is_flower and int(t) not in read), one if now != one else two)
    return _next_reading(dets, i) or spare


_TILE_VALUES = frozenset(int(t) for t in Tile if t is not Tile.UNKNOWN)


def numbered_text(dets: Any, lang: str, fixed: frozenset[str] = frozenset(), exact: list[str] | None = None,
                  shown: bool = True, added: frozenset[int] = frozenset()) -> str:
    """The tiles as read, each as ``ROW.N=TILE`` (``?``: read unsure; "(corrected)": as ``--tile`` gave it,
    ``fixed``: their places, not ``*``, which the drawing's labels give the winning tile: a review read the two
    marks as one), groups apart by ``|``: what ``--tile`` takes (its example the refusal's exact one, ``exact``,
    where it has one; none where ``shown`` is False: a refusal whose way out is the winning tile, not a tile read
    wrong), to copy with the tile put right; ``""`` where no tile is numbered (none found, or only backs): a review
    saw the list's header printed with nothing under it. ``added``: the detections ``--add`` gave, marked "(added)"."""
    doubtful = dets.doubtful()
    fixed_said = "（改過）" if lang == "zh" else " (corrected)"
    added_said = "（補上的）" if lang == "zh" else " (added)"
    lines = []
    for _, groups in _places(dets):
        parts = [" ".join(f"{at}={Tile(int(dets.kind[i])).code}{'?' if doubtful[i] else ''}"
                          f"{fixed_said if at in fixed else added_said if i in added else ''}" for at, i in g)
                 for g in groups]
        lines.append("    " + " | ".join(parts))
    if not lines:
        return ""
    ex = example(dets, exact)
    ex_zh, ex_en = (f"，例如 --tile {ex}", f", e.g. --tile {ex}") if shown else ("", "")
    head = f"  讀到的牌（? = 不確定；讀錯的用 --tile 列.張=牌 改正{ex_zh}）：" if lang == "zh" else \
        f"  tiles as read (? = unsure; correct a misread one with --tile ROW.N=TILE{ex_en}):"
    return "\n".join([head, *lines])


_TILE_EN = "correct each tile read wrong with --tile ROW.N=TILE (tile N of row ROW as read, {ex})"
_TILE_ZH = "用 --tile 列.張=牌 改正讀錯的牌（第幾列第幾張照讀到的順序，{ex}）"
_WAY_OUT = {"correct_tile": (f"; {_TILE_EN}", f"；{_TILE_ZH}"),
            "closer": (f"; photograph it closer, or {_TILE_EN}", f"；請拍近一點，或{_TILE_ZH}"),
            "blank_kong": ("; if they are blank white dragons lying face up, say so with --kong 5z=kong",
                           "；若這是牌面空白的白板、朝上擺著，請加 --kong 5z=kong")}
"""A refusal's way out (:class:`companion.vision.hand_score.WayOut`, by its value), as this command gives it: its own
options (``{ex}``: an example of this photo's, or the exact command for the tile the refusal names). Not ``companion
tai``: it reads JSON lines, not the notation printed here (a review's "cannot read it" when he typed the hand in);
``--tile`` corrects the tile read wrong, ``--kong 5z=kong`` takes four backs as blank white dragons."""


def _exact(refused: PhotoHandError, dets: Any) -> list[str]:
    """The ``ROW.N=TILE`` each the refusal names: a tile read surely and a kind it would make the hand a win as (at
    most four; none where it names more, or none)."""
    at = {i: a for _, groups in _places(dets) for g in groups for a, i in g}
    out = [f"{at[i]}={t.code}" for i, kinds in getattr(refused, "fits", ()) if i in at for t in kinds]
    return out if len(out) <= 4 else []


def _checked_example(refused: PhotoHandError, dets: Any) -> list[str]:
    """The least sure tile the refusal names to check (:attr:`PhotoHandError.check`; the first of those as sure) as
    another reading of it (:func:`_another_reading`), for the ``--tile`` example; none where it names no tile
    numbered (a review's 7f read twice was shown "--tile f.7=1f": the copy read surely)."""
    at = {i: a for _, groups in _places(dets) for g in groups for a, i in g}
    checked = [i for i in refused.check if i in at]
    if not checked:
        return []
    i = min(checked, key=lambda j: float(dets.score[j]))  # (min keeps the first of equal scores)
    return [f"{at[i]}={_another_reading(dets, i).code}"]


def advised(refused: PhotoHandError, dets: Any = None, corrections: list[Correction] | None = None
            ) -> tuple[str, str]:
    """A refusal's reason (:class:`companion.vision.hand_score.PhotoHandError`) with its way out said as this
    command's options (:data:`_WAY_OUT`): the exact ``--tile`` where the refusal names a tile and kind, else an
    example of the photo ``dets``; a refusal that blames the tiles the player corrected names his ``--tile``
    options (``corrections``: a review read "not a win as read" after his own ``--tile`` made the hand no win)."""
    given = " ".join(f"--tile {c[3]}" for c in corrections or [])
    yours = (f"not a win with your correction{'s' if len(corrections or []) > 1 else ''} ({given})",
             f"照你的改正（{given}）不是胡牌") if given else None
    if refused.way_out.value == "win_tile":  # the winning tile not in the photo: named with its own option
        code = refused.waits[0].code  # (a win_tile refusal always says the waits)
        return refused.said((f", or name it with --win-tile (e.g. --win-tile {code})",
                             f"，或用 --win-tile 指定（例如 --win-tile {code}）"), yours,
                            _NOTE_WAY.get(refused.also.value, ("", "")))  # (seven flowers: Seven rob one's options)
    exact = _exact(refused, dets) if dets is not None else []
    # the example from the tiles to check where the refusal names some (a review's duplicate flower was shown
    # "--tile 1.16=9p", the hand's last tile, not a flower)
    ex = (_checked_example(refused, dets) or [example(dets)])[0] if dets is not None else ""
    ex_en, ex_zh = (("for this photo: --tile " + " or --tile ".join(exact), "這張照片請用 --tile " + " 或 --tile ".join(exact)) if exact
                    else (f"e.g. --tile {ex}", f"例如 --tile {ex}") if dets is not None else
                    ("e.g. --tile 2.5=7p", "例如 --tile 2.5=7p"))
    en, zh = _WAY_OUT.get(refused.way_out.value, ("", ""))
    return refused.said((en.replace("{ex}", ex_en), zh.replace("{ex}", ex_zh)), yours)


def refusal_fields(refused: PhotoHandError, dets: Any, fixed: frozenset[str] = frozenset(),
                   added: frozenset[int] = frozenset()) -> dict[str, Any]:
    """The ``--json`` refusal's fields for a script to build ``--tile`` with: ``tiles`` (:func:`numbered_tiles`),
    ``check`` (the tiles the refusal names, ``{"at", "tile"}``, with ``"could_be"``: the kinds that would make the
    hand a win, where it says them; both left out where no tile is numbered) and ``way_out`` (:class:`companion.vision.hand_score.WayOut`'s value)."""
    at = {i: a for _, groups in _places(dets) for g in groups for a, i in g}
    fits = dict(getattr(refused, "fits", ()))
    check = [{"at": at[i], "tile": Tile(int(dets.kind[i])).code,
              **({"could_be": [t.code for t in fits[i]]} if i in fits else {})} for i in refused.check if i in at]
    tiles = numbered_tiles(dets, fixed, added)  # (none, and nothing to check, where no tile was found: no empty field)
    # (no "check": [] where it names no tile: a review's blank kong and sure tiles gave one)
    return {**({"tiles": tiles} if tiles else {}), **({"check": check} if check and tiles else {}),
            "way_out": refused.way_out.value, **({"waits": [t.code for t in refused.waits]} if refused.waits else {})}


_NOTE_WAY = {"concealed": (": say so with --concealed", "：請加 --concealed"),
             "seven_rob_one": (" (--win-type seven_flowers_rob --discarder SEAT)",
                               "（--win-type seven_flowers_rob --discarder 座位）")}
"""A doubt's way out (:attr:`companion.vision.hand_score.Note.way_out`, by its value) as this command's options."""


def noted(doubt: Any) -> tuple[str, str]:
    """A doubt (English, Chinese) with its way out said as this command's options (:data:`_NOTE_WAY`)."""
    return doubt.said(_NOTE_WAY.get(doubt.way_out.value, ("", "")))


_NO_PAYER = {"self_draw": ("a self-drawn win has no discarder: leave out --discarder", "自摸沒有放槍的人：不要加 --discarder"),
             "eight_flowers": ("a win by eight flowers has no discarder: leave out --discarder",
                               "八仙過海沒有放槍的人：不要加 --discarder")}
"""The ways of winning no seat pays for alone, with what is said where ``--discarder`` is given with one."""

_ONE_PHOTO = {
    "--win-tile": lambda given, n: (
        f"--win-tile {given}: --win-tile names the winning tile of one hand, and {n} photos were given: score the "
        "photo it belongs to alone",
        f"--win-tile {given}：--win-tile 只能指定一手牌胡的那張，這裡給了 {n} 張照片：請只給它那一張照片"),
    "--kong": lambda given, n: (
        f"--kong {given}: --kong says what a kong of one hand was, and {n} photos were given: score the photo it "
        "belongs to alone",
        f"--kong {given}：--kong 只能說明一手牌的槓，這裡給了 {n} 張照片：請只給它那一張照片")}
"""What is said where ``--win-tile`` or ``--kong`` (one hand's) is given with several photos (English, Chinese)."""
