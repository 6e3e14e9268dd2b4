"""The Score-a-photo tab's corrections: the player taps a misread tile and picks what it really is; the hand is
scored again with it, for certain."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from companion.app.photo_model import (
    PhotoContext,
    PhotoFailed,
    PhotoPanel,
    ReadPhoto,
    demo_photo,
    read_photo_file,
    read_tiles,
    score_picked,
    score_read_photo,
    score_typed_hand,
    with_picks,
)
from companion.app.words import ui
from companion.rules.settlement import Stakes
from companion.tiles import Tile, format_tiles, parse_tiles


@pytest.fixture(scope="module")
def demo() -> tuple[ReadPhoto, dict]:
    path, context = demo_photo()
    read = read_photo_file(path)
    assert isinstance(read, ReadPhoto)
    return read, context


def _misread(read: ReadPhoto, i: int, wrong: Tile) -> ReadPhoto:
    """The photo with tile ``i`` read, confidently, as ``wrong`` (a misreading the scorer cannot repair)."""
    d = read.dets
    kind, top3, top3s, score = d.kind.copy(), d.top3_kind.copy(), d.top3_score.copy(), d.score.copy()
    kind[i], top3[i], top3s[i], score[i] = int(wrong), [int(wrong)] * 3, [0.99, 0.0, 0.0], 0.99
    return dataclasses.replace(read, dets=dataclasses.replace(d, kind=kind, top3_kind=top3, top3_score=top3s,
                                                              score=score))


def test_the_tiles_are_listed_in_reading_order_with_their_doubts(demo: tuple[ReadPhoto, dict]) -> None:
    read, _ = demo
    shown = read_tiles(read)
    assert sorted(r.index for r in shown) == list(range(len(read.dets)))
    assert [r.code for r in shown] == [Tile(int(k)).code for k in read.dets.in_reading_order().kind]
    assert [r.doubtful for r in shown] == list(read.dets.in_reading_order().doubtful())
    assert not any(r.picked for r in shown)


def test_a_refused_photo_frames_the_least_sure_of_more_copies_than_a_set_holds(demo: tuple[ReadPhoto, dict]) -> None:
    """A flower read twice (no set has two): the photo is refused, and the less sure of the two is framed in the
    list to correct, as in its drawing; a hand as scored frames only its unsure faces."""
    read, context = demo
    flowers = [i for i in range(len(read.dets)) if Tile(int(read.dets.kind[i])).is_flower]
    keep, twin = flowers[0], flowers[1]
    twice = _misread(read, twin, Tile(int(read.dets.kind[keep])))
    d = twice.dets
    score = d.score.copy()
    score[twin], score[keep] = 0.6, 0.99  # sure enough not to be unsure, less sure than the other
    twice = dataclasses.replace(twice, dets=dataclasses.replace(d, score=score))
    assert isinstance(score_read_photo(twice, context), PhotoFailed)
    listed = {r.index: r for r in read_tiles(twice)}
    assert listed[twin].doubtful and not listed[keep].doubtful
    assert not {r.index: r for r in read_tiles(twice, scored={})}[twin].doubtful
    # the player says the surer one is another flower: the twin is then the only one of its kind, so it is no
    # longer framed (the list had kept the reading's frame, the drawing had not: a review)
    other = next(f for f in (Tile.F8, Tile.F7, Tile.F6) if f not in {Tile(int(k)) for k in twice.dets.kind})
    assert not {r.index: r for r in read_tiles(twice, {keep: other})}[twin].doubtful


def test_the_photo_comes_with_what_its_colours_and_marks_mean(demo: tuple[ReadPhoto, dict]) -> None:
    """The scored photo's legend names the winning tile's ``*`` and the sure faces' colour; a hand that cannot be
    scored shows its photo as read with a legend too (a review could not tell what the colours meant)."""
    read, context = demo
    right = score_read_photo(read, context)
    assert isinstance(right, PhotoPanel)
    marks = {e.mark for e in right.legend}
    assert "*" in marks and any(e.bgr is not None and not e.line and e.en == "face up" for e in right.legend)
    broken = score_read_photo(_misread(read, int(np.nonzero(read.dets.face_up)[0][0]), Tile.F1), context)
    assert isinstance(broken, PhotoFailed)  # a tile turned into a flower: the hand is one short
    assert broken.image and broken.legend and "*" not in {e.mark for e in broken.legend}


def test_a_confident_misread_is_mended_by_the_players_pick(demo: tuple[ReadPhoto, dict]) -> None:
    read, context = demo
    right = score_read_photo(read, context)
    assert isinstance(right, PhotoPanel)
    i = int(np.nonzero(read.dets.face_up)[0][0])
    truth = Tile(int(read.dets.kind[i]))
    wrong = Tile.Z7 if truth is not Tile.Z7 else Tile.Z6
    misread = _misread(read, i, wrong)
    broken = score_read_photo(misread, context)
    assert not (isinstance(broken, PhotoPanel) and broken.total == right.total and broken.items == right.items)
    mended = score_read_photo(with_picks(misread, {i: truth}), context)
    assert isinstance(mended, PhotoPanel)
    assert (mended.total, mended.items, mended.concealed) == (right.total, right.items, right.concealed)
    listed = {r.index: r for r in read_tiles(misread, {i: truth})}
    assert listed[i].code == truth.code and listed[i].picked and not listed[i].doubtful


def test_a_pick_is_taken_for_certain_and_a_back_is_face_down(demo: tuple[ReadPhoto, dict]) -> None:
    read, _ = demo
    picked = with_picks(read, {0: Tile.UNKNOWN, 1: Tile.P5})
    d = picked.dets
    assert (Tile(int(d.kind[0])), bool(d.face_up[0]), float(d.score[0])) == (Tile.UNKNOWN, False, 1.0)
    assert (Tile(int(d.kind[1])), bool(d.face_up[1]), float(d.score[1])) == (Tile.P5, True, 1.0)
    assert read.dets.kind is not d.kind and with_picks(read, {}) is read  # the reading itself is untouched
    with pytest.raises(ValueError, match="no tile 999"):
        with_picks(read, {999: Tile.P5})


def test_picking_a_tile_that_breaks_the_hand_says_why(demo: tuple[ReadPhoto, dict]) -> None:
    read, context = demo
    i = int(np.nonzero(read.dets.face_up)[0][0])
    truth = Tile(int(read.dets.kind[i]))
    odd = next(t for t in (Tile.Z7, Tile.Z6, Tile.Z5) if t is not truth)
    got = score_read_photo(with_picks(read, {i: odd}), context)
    # no legal win with that tile, and the scorer does not repair the player's pick back: refused with the reason
    assert isinstance(got, PhotoFailed) and got.image is not None
    assert f"{odd.code} 7p" in got.reason.en and "無法計算" in got.reason.zh
    # as the app scores it, knowing the player corrected one tile: his correction is named, not the photo blamed,
    # and the Chinese gives the tiles by their names
    said = score_picked(read, {i: odd}, context)
    assert isinstance(said, PhotoFailed) and said.image is not None
    assert said.reason.zh.startswith("照你改過的 1 張牌，這手不是胡牌") and f"{odd.zh} 七筒" in said.reason.zh
    assert said.reason.en.startswith("With the 1 tile you corrected") and f"{odd.code} 7p" in said.reason.en
    assert "照片怎麼讀" not in said.reason.zh and not re.search(r"[0-9][mpszf]|flowers", said.reason.zh)


def test_a_typed_winning_hand_is_scored_like_a_photographed_one() -> None:
    """No photo at hand: the winning hand typed (My hand's notation) is scored with the same form. Which tile
    was won on is not typed, so each is tried, the most tai taken, and the others said."""
    from companion.app.photo_model import PhotoContext, score_typed_hand
    from companion.rules.profiles import load_profile
    from companion.rules.scoring import score
    from companion.rules.win import Win

    context = {**PhotoContext().as_context(), "win_type": "discard", "discarder": "S", "seat_wind": "W"}
    got = score_typed_hand("45m77p234789s kong:6666m@R pung:999p@O 1f 3m", context)
    assert isinstance(got, PhotoPanel) and got.image == b"" and got.name.endswith("1f 3m")
    each = {}
    for t in sorted(set(parse_tiles("345m77p234789s"))):
        rest = list(parse_tiles("345m77p234789s"))
        rest.remove(t)
        win = Win.from_dict({"concealed": format_tiles(rest), "win_tile": t.code, "flowers": "1f",
                             "melds": ["kong:6666m@R", "pung:999p@O"], **context})
        each[t.code] = score(win, load_profile(None)).hand_tai
    best = max(each.values())
    assert got.hand_tai == best and each[got.win_tile or ""] == best
    tied = [c for c in sorted(each, key=Tile.from_code) if each[c] == best]  # each named (a review read one of two)
    assert got.melds and got.flowers == ("1f",) and len(tied) > 1
    assert got.notes[0].zh.startswith(f"不知道胡的是哪張：胡{'、'.join(Tile.from_code(c).zh for c in tied[:-1])}或"
                                      f"{Tile.from_code(tied[-1]).zh}都是 {best} 台（最多）")
    assert dict(got.win_choices) == each  # every tile it can have been won on, with its tai, to pick
    assert [p.en for p in got.payments] == [got.payments[0].en] and "South" in got.payments[0].en  # 南家 pays
    short = score_typed_hand("1112345678999m123p", context)  # 16 tiles: waiting, not won
    assert isinstance(short, PhotoFailed) and short.reason == ui("typed_not_win")
    bad = score_typed_hand("1112345678999m123p5x", context)
    assert isinstance(bad, PhotoFailed) and "0x" in bad.reason.en and "0x" in bad.reason.zh
    form = score_typed_hand("1112345678999m123p5m", {**context, "seat_wind": "W", "discarder": "W"})
    assert isinstance(form, PhotoFailed) and "discarder" in form.reason.en
    assert form.reason.en.startswith("1112345678999m123p5m cannot be scored") and "寫錯" not in form.reason.zh


def test_the_tile_won_on_a_typed_hand_can_be_named() -> None:
    """The player knows which tile completed his hand; it changes the score (a closed wait on it, or a pair), so
    the panel lists every tile the hand can have been won on with its tai, and scores the one he names."""
    from companion.app.photo_model import PhotoContext, score_typed_hand
    from companion.rules.profiles import load_profile
    from companion.rules.scoring import score
    from companion.rules.win import Win

    context = {**PhotoContext().as_context(), "win_type": "discard", "discarder": "S", "seat_wind": "W"}
    hand = "45m77p234789s kong:6666m@R pung:999p@O 1f 3m"
    concealed = parse_tiles("345m77p234789s")
    each = {}
    for t in sorted(set(concealed)):
        rest = list(concealed)
        rest.remove(t)
        win = Win.from_dict({"concealed": format_tiles(rest), "win_tile": t.code, "flowers": "1f",
                             "melds": ["kong:6666m@R", "pung:999p@O"], **context})
        each[t.code] = score(win, load_profile(None))
    most = score_typed_hand(hand, context)
    assert isinstance(most, PhotoPanel) and not most.win_picked
    assert dict(most.win_choices) == {c: s.hand_tai for c, s in each.items()}
    fewest = min(each, key=lambda c: each[c].hand_tai)
    assert each[fewest].hand_tai < most.hand_tai  # (the hand is one where the tile matters)
    picked = score_typed_hand(hand, context, win_tile=Tile.from_code(fewest))
    assert isinstance(picked, PhotoPanel) and picked.win_picked and picked.win_tile == fewest
    assert picked.hand_tai == each[fewest].hand_tai and picked.win_choices == most.win_choices
    assert [(w.zh, n) for w, n in picked.items] == [(i.zh, i.tai) for i in each[fewest].items]
    assert not picked.notes  # nothing assumed
    absent = score_typed_hand(hand, context, win_tile=Tile.from_code("1z"))
    assert isinstance(absent, PhotoFailed)
    assert "東" in absent.reason.zh and "1z" in absent.reason.en and "holds no" in absent.reason.en


def _row_photo(row: str) -> ReadPhoto:
    """A photo read as one row of face-up tiles side by side, each sure, none set apart."""
    from companion.vision.read import Detections

    tiles = parse_tiles(row)
    n = len(tiles)
    obb = np.array([[60.0 + 32 * i, 100.0, 30.0, 40.0, 0.0] for i in range(n)], np.float32)
    kind = np.array([int(t) for t in tiles], np.int16)
    other = [int(Tile.P9 if t is not Tile.P9 else Tile.P8) for t in tiles]
    top3 = np.array([[int(t), o, int(Tile.Z7 if t is not Tile.Z7 else Tile.Z6)] for t, o in zip(tiles, other, strict=True)],
                    np.int16)
    dets = Detections(obb, kind, np.ones(n, bool), np.full(n, 0.98, np.float32), top3,
                      np.tile(np.array([0.98, 0.01, 0.005], np.float32), (n, 1)), (700, 200))
    return ReadPhoto("row.jpg", np.full((200, 700, 3), 90, np.uint8), dets)


def test_the_tile_won_on_a_photo_with_none_set_apart_can_be_named() -> None:
    """A photo of the hand in one row does not show which tile won: the panel lists every tile the hand can have
    been won on with its tai, says which one the total assumes, and scores the one the player names (a review was
    charged the most tai and told of a command's option on a phone)."""
    read = _row_photo("123m456m789p234s678s55m")
    context = {**PhotoContext().as_context(), "win_type": "discard", "discarder": "N", "seat_wind": "S"}
    most = score_picked(read, {}, context)
    assert isinstance(most, PhotoPanel) and not most.win_picked
    tais = dict(most.win_choices)
    assert len(tais) > 1 and len(set(tais.values())) > 1 and most.hand_tai == max(tais.values())
    assert most.win_tile is not None and tais[most.win_tile] == most.hand_tai
    assert "（假設胡" in most.total.zh and "(if won on" in most.total.en
    assert not any("--win-tile" in n.en or "--win-tile" in n.zh for n in most.notes)
    fewest = min(tais, key=lambda c: tais[c])
    picked = score_picked(read, {}, context, win_tile=Tile.from_code(fewest))
    assert isinstance(picked, PhotoPanel) and picked.win_picked and picked.win_tile == fewest
    assert picked.hand_tai == tais[fewest] < most.hand_tai
    assert picked.win_choices == most.win_choices and "假設" not in picked.total.zh
    # the same hand as typed, won on that tile, scores the same
    typed = score_typed_hand("123m456m789p234s678s55m", context, win_tile=Tile.from_code(fewest))
    assert isinstance(typed, PhotoPanel) and (typed.items, typed.total) == (picked.items, picked.total)
    absent = score_picked(read, {}, context, win_tile=Tile.Z1)
    assert isinstance(absent, PhotoFailed)


def test_only_a_correction_that_breaks_a_winning_photo_is_blamed(demo: tuple[ReadPhoto, dict]) -> None:
    read, context = demo
    i = int(np.nonzero(read.dets.face_up)[0][0])
    truth = Tile(int(read.dets.kind[i]))
    odd = next(t for t in (Tile.Z7, Tile.Z6, Tile.Z5) if t is not truth)
    misread = _misread(read, i, odd)  # a photo that never read as a win
    assert isinstance(score_read_photo(misread, context), PhotoFailed)
    j = next(k for k in range(len(read.dets)) if k != i and read.dets.face_up[k])
    confirmed = score_picked(misread, {j: Tile(int(read.dets.kind[j]))}, context)  # a tile confirmed as read
    assert isinstance(confirmed, PhotoFailed) and "照你改過" not in confirmed.reason.zh
    assert confirmed.reason == score_read_photo(misread, context).reason
    assert isinstance(score_picked(misread, {i: truth}, context), PhotoPanel)  # the right pick mends it



@pytest.mark.parametrize(("hand", "change", "item"), [
    ("123m456m789m123p456p44s", {"win_type": "rob_kong", "discarder": "S"}, "搶槓"),
    ("123m456m789p456p44s ckong:1111s", {"moment": "after_kong"}, "槓上開花"),
    ("123m456m789m123p456p44s", {"moment": "last_tile"}, "海底撈月"),
    ("123m456m789m123p456p44s", {"win_type": "discard", "discarder": "S", "moment": "last_discard"}, "河底撈魚"),
    ("123m456m789m123p456p44s", {"moment": "heavenly"}, "天胡"),
    ("123m456m789m123p456p44s", {"seat_wind": "S", "moment": "earthly"}, "地胡"),
    ("123m456m789m123p456p44s", {"seat_wind": "S", "win_type": "discard", "discarder": "E", "moment": "human"},
     "人胡"),
    ("123m456m789m123p456p44s", {"seat_wind": "S", "ready": "ready_on_deal"}, "天聽"),
    ("123m456m789m123p456p44s", {"seat_wind": "S", "ready": "ready_first_discard"}, "地聽"),
])
def test_the_form_sets_what_a_photo_cannot_show_and_each_scores(hand: str, change: dict, item: str) -> None:
    """A beginner review could not score a 搶槓, 槓上開花, 海底, 河底, 天/地/人胡 or 天聽/地聽 win from the form
    (spec §3.2 flags); each is now a choice, and the form keeps it when read back."""
    form = dataclasses.replace(PhotoContext(), **change)
    assert PhotoContext.from_context(form.as_context()) == form
    usual = "discard" if form.win_type == "rob_kong" else form.win_type
    plain = score_typed_hand(hand, dataclasses.replace(form, win_type=usual, moment="", ready="").as_context())
    scored = score_typed_hand(hand, form.as_context())
    assert isinstance(scored, PhotoPanel), scored
    assert any(w.zh.startswith(item) for w, _ in scored.items)
    assert not isinstance(plain, PhotoPanel) or not any(w.zh.startswith(item) for w, _ in plain.items)


def test_a_wrong_form_names_its_box_not_the_record_field() -> None:
    """A review read "欄位 discarder 有誤" on a phone: the form's own box is named."""
    bad = score_typed_hand("123m456m789m123p456p44s", PhotoContext(win_type="discard", discarder="E").as_context())
    assert isinstance(bad, PhotoFailed)
    assert "「放槍的人」不對：" in bad.reason.zh and "Discarder: " in bad.reason.en
    assert "discarder" not in bad.reason.zh and "欄位" not in bad.reason.zh
    kong = score_typed_hand("123m456m789m123p456p44s", PhotoContext(moment="after_kong").as_context())
    assert isinstance(kong, PhotoFailed) and "「胡在什麼時候」不對：" in kong.reason.zh and "When it came: " in kong.reason.en


def test_a_refused_photo_says_which_tile_would_make_a_win_and_no_command_line() -> None:
    """A hand whose claimed tile two kinds would each complete: the card names the tile and the kinds, and says
    nothing of `companion tai` (a phone has no command line; its tiles are picked on the card)."""
    from companion.app.photo_model import app_words
    from companion.rules.profiles import load_profile
    from companion.vision.hand_score import PhotoHandError, score_photo
    from tests.vision.test_hand_score import laid

    for read in (0.96, 0.3):  # read surely (the hand at fault?) and unsurely (the photo)
        dets = laid([(100, ["44p678p11s", "1s"]), (200, ["239p", "222z", "123m"])],
                    {10: [("9p", read), ("3z", 0.01), ("4z", 0.005)]}, sideways={10, 11, 14})
        with pytest.raises(PhotoHandError) as refused:
            score_photo(dets, {}, load_profile(None))
        said = app_words(refused.value)
        if read < 0.5:
            assert said.en.endswith("the tile read 9 Dots (row 2, tile 3) would make a win as 1 Dot or 4 Dots: check "
                                    "which it is; photograph it closer, or tap a tile read wrong below and pick what "
                                    "it really is")
            assert said.zh.endswith("第 2 列第 3 張（讀成九筒）當作一筒或四筒都能胡：請看清楚是哪一張；請拍近一點，"
                                    "或在下面點讀錯的牌，選它其實是哪張")
        else:  # read surely: no win as read, the tile named with the kinds that would make one (never taken as one)
            assert said.en.startswith("not a win as read; it would be one if the 9 Dots (96% sure; row 2, tile 3) "
                                      "were 1 Dot or 4 Dots: check that tile")
            assert said.zh.startswith("照讀到的不是胡牌；若第 2 列第 3 張的九筒（96% 把握）其實是一筒或四筒，才是胡牌")
        assert "companion" not in said.en + said.zh


def test_four_backs_refused_in_the_app_send_a_blank_white_set_to_my_hand_not_to_an_option() -> None:
    """A product review: four backs together may be a kong of blank 白板 lying face up; the command line's way out
    (--kong 5z=kong) means nothing on a phone, where the hand is typed in on "My hand"."""
    from companion.app.photo_model import app_words
    from companion.rules.profiles import load_profile
    from companion.vision.hand_score import PhotoHandError, score_photo
    from tests.vision.test_hand_score import laid

    with pytest.raises(PhotoHandError) as refused:
        score_photo(laid([(100, ["123456789m5p", "5p"]), (200, ["0x0x0x0x", "999s"])]), {}, load_profile(None))
    said = app_words(refused.value)
    assert "turn one tile of a concealed kong face up so its kind shows; if they are blank white dragons lying " \
        "face up, enter the hand in \u201cMy hand\u201d (read:" in said.en
    assert "暗槓請翻開一張，讓它的牌面看得到；若這是牌面空白的白板、朝上擺著，請到「我的手牌」輸入這手牌（讀到：" in said.zh
    assert ui("tab_hand").en == "My hand" and ui("tab_hand").zh == "我的手牌"
    assert "--kong" not in said.en + said.zh and "companion" not in said.en + said.zh


def _tapped(control: object, identifier: str) -> None:
    """Tap the control drawn with ``identifier`` (its on_click) in a tab drawn without a browser."""
    import flet as ft

    stack = [control]
    while stack:
        c = stack.pop()
        if isinstance(c, ft.Semantics) and c.identifier == identifier:
            c.content.on_click()
            return
        for name in ("content", "controls"):
            v = getattr(c, name, None)
            if isinstance(v, list):
                stack += v
            elif v is not None and not isinstance(v, str):
                stack.append(v)
    raise AssertionError(f"no {identifier} drawn")


def test_the_photo_tab_takes_the_tile_won_on_and_a_new_photo_is_a_new_hand(tmp_path: Path) -> None:
    """On the tab: the tile tapped among the choices is the one scored; the next photo is another hand, so what
    the last one had of its own (how it was won, the seat, the streak) goes back to the defaults, and the form says
    so until the player sets a field; the table's (the round wind, the rules, the stakes) stay."""
    from companion.app.photo_model import FIELD_WORDS
    from companion.app.view_photo import PhotoSource, PhotoTab
    from tests.app.test_tabs_beside_a_live_table import _Host, _texts

    row = _row_photo("123m456m789p234s678s55m")

    def no_demo() -> tuple[ReadPhoto, dict]:
        raise AssertionError("the bundled photo is not shown here")

    source = PhotoSource(demo=no_demo, read_file=lambda path, name: dataclasses.replace(row, name=name),
                         upload_dir=None)
    tab = PhotoTab(_Host(), source)
    tab._received(tmp_path / "a.jpg", "a.jpg")
    assert tab.reset == ()  # the first photo: nothing was set for another hand
    tab.set_context(win_type="discard", discarder="W", seat_wind="S", round_wind="S", streak=2, stakes="50/20")
    most = tab.shown
    assert isinstance(most, PhotoPanel) and not most.win_picked and len(most.win_choices) > 1
    fewest = min(most.win_choices, key=lambda c: c[1])
    _tapped(tab.build(), f"typed-win-{fewest[0]}")
    picked = tab.shown
    assert isinstance(picked, PhotoPanel) and picked.win_picked and picked.win_tile == fewest[0]
    assert picked.hand_tai == fewest[1] < most.hand_tai
    _tapped(tab.build(), "typed-win-most")  # not sure after all: the most again
    assert isinstance(tab.shown, PhotoPanel) and tab.shown.total == most.total
    tab._received(tmp_path / "b.jpg", "b.jpg")
    c = tab.context
    assert (c.win_type, c.discarder, c.seat_wind, c.streak) == ("self_draw", "N", "E", 0)
    assert (c.round_wind, c.stakes) == ("S", "50/20") and tab.photo_win is None
    assert tab.reset == ("win_type", "discarder", "seat_wind", "streak")
    said = ui("photo_new_hand", fields="、".join(ui(FIELD_WORDS[f]).zh for f in tab.reset),
              fields_en=", ".join(ui(FIELD_WORDS[f]).en for f in tab.reset)).en
    assert said in _texts(tab.build())
    fresh = score_picked(row, {}, c.as_context(), Stakes(50, 20))
    assert isinstance(tab.shown, PhotoPanel) and isinstance(fresh, PhotoPanel) and tab.shown.total == fresh.total
    tab.set_context(streak=1)
    assert said not in _texts(tab.build())


def test_a_bad_photo_is_named_once_with_the_reason_alone(tmp_path: Path) -> None:
    """The words name the photo; the reason after them does not again, nor carries the decoder's own words (a
    review read "TRUNC.jpg cannot be scored: TRUNC.jpg: damaged or truncated image (image file is truncated (38
    bytes not processed))")."""
    from PIL import Image

    good = tmp_path / "whole.jpg"
    Image.fromarray(np.zeros((40, 30, 3), np.uint8)).save(good, quality=95)
    cut = tmp_path / "upload-123.jpg"
    cut.write_bytes(good.read_bytes()[:200])
    failed = read_photo_file(cut, name="TRUNC.jpg")
    assert isinstance(failed, PhotoFailed)
    assert failed.reason == ui("photo_failed", name="TRUNC.jpg", why="圖檔損壞或不完整",
                               why_en="damaged or truncated image")
    assert failed.reason.en.count("TRUNC.jpg") == 1 and "upload-123" not in failed.reason.en + failed.reason.zh


def test_a_typed_hand_after_one_scored_is_a_new_hand_and_the_discarder_is_never_the_winner() -> None:
    """Another typed hand after one that scored starts from the defaults for what each hand has of its own; a hand
    mended after a refusal (a typo) keeps what was set for it. The winner cannot have discarded: the form does not
    offer his seat, and moving him to the discarder's seat moves the discarder to his 上家."""
    from companion.app.view_photo import PhotoSource, PhotoTab
    from tests.app.test_tabs_beside_a_live_table import _Host

    def unused(*_: object) -> tuple[ReadPhoto, dict]:
        raise AssertionError("no photo here")

    tab = PhotoTab(_Host(), PhotoSource(demo=unused, read_file=unused, upload_dir=None))
    tab.score_typed("123m456m234p678p345s88s")
    tab.set_context(win_type="discard", discarder="S", seat_wind="W", streak=2)
    assert isinstance(tab.shown, PhotoPanel)
    tab.score_typed("123m456m234p678p345s88s")  # the same hand again: nothing reset
    assert (tab.context.streak, tab.reset) == (2, ())
    tab.score_typed("111m234m567m789p123s5z9z")  # another hand, and a typo: refused, the form left as it was
    assert isinstance(tab.shown, PhotoFailed) and tab.reset == ("win_type", "discarder", "seat_wind", "streak")
    tab.set_context(win_type="discard", discarder="S", seat_wind="W", streak=1)
    tab.score_typed("111m234m567m789p123s55z")  # the typo mended: still the hand the form was set for
    assert isinstance(tab.shown, PhotoPanel) and (tab.context.streak, tab.context.seat_wind, tab.reset) == (1, "W", ())
    tab.set_context(seat_wind="S")  # the winner sits where the discarder was: the discarder is his 上家, East
    assert (tab.context.seat_wind, tab.context.discarder) == ("S", "E") and isinstance(tab.shown, PhotoPanel)
    form = tab._form()
    options: list[str] = []
    stack: list[object] = [form]
    while stack:
        c = stack.pop()
        if getattr(c, "identifier", None) == "ctx-discarder":
            options = [o.key for o in c.content.options]  # type: ignore[attr-defined]
        for name in ("content", "controls"):
            v = getattr(c, name, None)
            stack += v if isinstance(v, list) else [v] if v is not None and not isinstance(v, str) else []
    assert options == ["E", "W", "N"]


@pytest.mark.parametrize(("hand", "n"), [("123m456m789m123p456p789p5s", 19), ("123m456m789m123p4p", 13),
                                         ("kong:1111m@R 234m567m789p11z2z", 15)])
def test_a_typed_hand_of_the_wrong_size_is_told_a_wins_size(hand: str, n: int) -> None:
    """The Score tab scores wins: a wrong count is measured against a win's 17, not "16, or 17 after a draw"."""
    from companion.app.photo_model import PhotoContext, score_typed_hand

    failed = score_typed_hand(hand, PhotoContext().as_context())
    assert isinstance(failed, PhotoFailed) and failed.reason == ui("typed_count", n=n, want=17)
    assert "16" not in failed.reason.zh


def test_eight_pairs_typed_for_a_score_are_told_this_game_has_no_pairs_win() -> None:
    from companion.app.photo_model import PhotoContext, score_typed_hand

    failed = score_typed_hand("11m55m99m22p66p11s77s11z2z", PhotoContext().as_context())
    assert isinstance(failed, PhotoFailed) and failed.reason == ui("typed_not_win") + ui("pairs_not_win")


def test_the_form_says_which_kong_a_replacement_win_came_after() -> None:
    """A rules review: the form's 槓上開花 could not say which kong. The winner's own kong: a face-up kong, in a
    photo or typed as exposed, was added to a pung (加槓), and the win scores 槓上開花 (it was refused as after a
    discard's kong); after a kong of a discard it is said, and these rules refuse it (spec §2.10)."""
    from companion.app.photo_model import (
        DISCARD_KONG,
        PhotoContext,
        PhotoFailed,
        PhotoPanel,
        ReadPhoto,
        score_picked,
        score_typed_hand,
    )
    from tests.vision.test_hand_score import laid

    own, theirs = PhotoContext(moment="after_kong"), PhotoContext(moment=DISCARD_KONG)
    assert PhotoContext.from_context(theirs.as_context()) == theirs  # the form's moment kept through its record
    assert theirs.as_context()["flags"] == {"replacement_after": "kong"}
    dets = laid([(100, ["456m789m45s55z", "6s"]), (200, ["3333p", "123m"])])
    photo = ReadPhoto("kong.jpg", np.full((300, 700, 3), 90, np.uint8), dets)
    plain = score_picked(photo, {}, PhotoContext().as_context())  # no moment: the face-up kong taken as exposed,
    assert isinstance(plain, PhotoPanel)  # said without the command's option, with how a concealed one is shown
    assert any("taken as an exposed kong" in n.en and "當作明槓" in n.zh and "face down" in n.en and "蓋著" in n.zh
               for n in plain.notes), plain.notes
    assert any("加槓後補牌胡的，請在「胡在什麼時候」選「槓上開花（自己暗槓、加槓）」" in n.zh
               and "“When it came”: after their own kong (concealed, added)" in n.en
               for n in plain.notes)  # and how an added one is said (a review found no word of it)
    assert not any("--kong" in n.en or "--kong" in n.zh for n in plain.notes)
    for scored, how in ((score_picked(photo, {}, own.as_context()), "face down"),
                        (score_typed_hand("456m789m456s55z kong:3333p chow:123m", own.as_context(), win_tile=Tile.S6),
                         "ckong:3333p")):
        assert isinstance(scored, PhotoPanel), scored
        assert dict((w.en, n) for w, n in scored.items)["Win on a replacement"] == 1, scored.items
        assert sum(n for _, n in scored.items) == sum(n for _, n in plain.items) + 1  # that item alone more
        # the kong said as taken added, and how a concealed one (門清, 暗刻: more tai) is said instead
        assert any("taken as an added kong" in n.en and how in n.en and "加槓" in n.zh for n in scored.notes), \
            scored.notes
        assert any(n.en.startswith("The 3 Dots kong") for n in scored.notes)  # (not "The kong of 3 Dots")
        assert not any("--kong" in n.en or "--kong" in n.zh for n in scored.notes)  # (the command's option)
    for refused in (score_picked(photo, {}, theirs.as_context()),
                    score_typed_hand("456m789m456s55z kong:3333p chow:123m", theirs.as_context(), win_tile=Tile.S6)):
        assert isinstance(refused, PhotoFailed) and "詐胡：明槓" in refused.reason.zh, refused
        assert "a false win: the rule set “ATAWMJ 2009” does not allow a win on the replacement drawn " \
            "after a kong of another player's discard" in refused.reason.en  # its reason,
        assert "win=" not in refused.reason.en  # not the scorer's notation of the hand
    assert ui("moment_after_discard_kong").zh and ui("moment_after_discard_kong").en


def test_a_hand_sent_while_the_bundled_photo_is_read_is_scored_after_it() -> None:
    """Enter in the hand field while the tab still reads the bundled photo (its first show, slow on a loaded
    machine): the reading finished, emptied the field and showed the photo's score, and the hand was lost. Now the
    hand sent is scored when the reading is done."""
    from companion.app.view_photo import PhotoSource, PhotoTab
    from tests.app.test_tabs_beside_a_live_table import _Host

    demo = _row_photo("123m456m789p234s678s55m")
    host = _Host()
    pending: list = []
    host.page.run_thread = pending.append  # the worker runs when the test says
    tab = PhotoTab(host, PhotoSource(demo=lambda: (demo, {}), read_file=lambda *_: demo, upload_dir=None))
    tab.use_demo()
    assert tab.busy is not None and len(pending) == 1
    hand = "1112345678999m123p5m"
    tab.typed_field.value = hand
    tab.score_typed()  # Enter, while the photo is read
    assert tab.typed is None and len(pending) == 1  # not yet
    pending.pop()()  # the photo read; then the hand sent
    assert tab.typed == hand and tab.typed_field.value == hand and len(pending) == 1
    pending.pop()()
    expected = score_typed_hand(hand, tab.context.as_context())
    assert tab.busy is None and isinstance(tab.shown, PhotoPanel) and isinstance(expected, PhotoPanel)
    assert tab.shown.total == expected.total and not tab.demo


def test_every_tile_giving_the_most_tai_is_named_where_the_tile_won_on_is_not_known() -> None:
    """Nine gates: 3m, 7m, 2p and 3p each give the most tai; a review read only the first named."""
    typed = score_typed_hand("1112345678999m123p5m", PhotoContext().as_context())
    assert isinstance(typed, PhotoPanel)
    tais = dict(typed.win_choices)
    best = [c for c in tais if tais[c] == typed.hand_tai]
    assert best == ["3m", "7m", "2p", "3p"]
    assert typed.total.zh.endswith("（假設胡三萬、七萬、二筒或三筒）")
    assert typed.total.en.endswith(" (if won on 3 Characters, 7 Characters, 2 Dots or 3 Dots)")
    assert any(n.en.startswith("Which tile was won on is not known: 3 Characters, 7 Characters, 2 Dots or 3 Dots "
                               "each give 4 tai, the most") for n in typed.notes)


CJK = re.compile(r"[\u4e00-\u9fff]")


def _kong_and_backs() -> list[tuple[ReadPhoto, dict]]:
    """Photos whose notes the app builds outside its words (the scorer's, the app's own of a kong): a face-up kong,
    as exposed and, after the winner's own kong, as added; three backs taken as white dragons."""
    from tests.vision.test_hand_score import laid

    def photo(rows: list[tuple[int, list[str]]]) -> ReadPhoto:
        return ReadPhoto("p.jpg", np.full((400, 700, 3), 90, np.uint8), laid(rows))

    kong = photo([(100, ["456m789m45s55z", "6s"]), (200, ["3333p", "123m"])])
    whites = photo([(100, ["66p23455s", "6p"]), (200, ["0x0x0x", "789s", "111z"]), (300, ["3f4f"])])
    return [(kong, PhotoContext().as_context()), (kong, PhotoContext(moment="after_kong").as_context()),
            (whites, PhotoContext().as_context())]


def test_the_notes_the_app_builds_outside_its_words_carry_no_chinese_in_english() -> None:
    """The check that keeps Chinese out of the app's English reads its words table only; a wording review read
    "taken as added (加槓)", "exposed (明槓)" and "a set's 白板 is blank" in notes built elsewhere: the photo's and
    My hand's notes, and a refused photo's reason, say it in English alone, each note a sentence."""
    notes = [n for photo, context in _kong_and_backs() for n in _notes(score_picked(photo, {}, context))]
    typed = score_typed_hand("123m456m789p123s22s kong:5555z", {"win_type": "self_draw", "seat_wind": "E",
                                                                 "round_wind": "E", "flags": {"after_kong": True}})
    notes += _notes(typed)
    assert len(notes) >= 4 and all(n.en[:1] == n.en[:1].upper() for n in notes), notes
    assert not [n.en for n in notes if CJK.search(n.en)]
    assert all(CJK.search(n.zh) for n in notes), notes
    from tests.vision.test_hand_score import laid
    four_backs = ReadPhoto("p.jpg", np.full((400, 700, 3), 90, np.uint8),
                           laid([(100, ["123456789m5p", "5p"]), (200, ["0x0x0x0x", "999s"])]))
    failed = score_picked(four_backs, {}, PhotoContext().as_context())
    assert isinstance(failed, PhotoFailed) and "white dragons" in failed.reason.en
    assert not CJK.search(failed.reason.en), failed.reason.en


def _notes(shown: PhotoPanel | PhotoFailed) -> list:
    assert isinstance(shown, PhotoPanel), shown
    return list(shown.notes)


def _drawn(control: object, identifier: str) -> object:
    """The control drawn with ``identifier`` in a tab drawn without a browser."""
    import flet as ft

    stack = [control]
    while stack:
        c = stack.pop()
        if isinstance(c, ft.Semantics) and c.identifier == identifier:
            return c.content
        for name in ("content", "controls"):
            v = getattr(c, name, None)
            if isinstance(v, list):
                stack += v
            elif v is not None and not isinstance(v, str):
                stack.append(v)
    raise AssertionError(f"no {identifier} drawn")


def _framed(tab: object, n: int) -> bool:
    """The n-th tile of the tab's list to correct is framed (thick: unsure, changed, to check, or picked)."""
    return _drawn(tab.build(), f"photo-tile-{n}").border.top.width == 3  # type: ignore[attr-defined]


def test_a_hand_one_sure_tile_from_a_win_is_refused_on_the_tab_and_the_tile_to_check_is_framed(tmp_path: Path) -> None:
    """A review's photo: 123456789m 23456p 19s, 7p set apart, its 9s read at 86%: the tab showed "4 tai in all:
    South pays East…" with the 9s taken as 1s; a 詐胡 paid. Now it is refused, naming the tiles; each is framed in the
    list to correct, and the one tapped and corrected makes the win."""
    from companion.app.view_photo import PhotoSource, PhotoTab
    from tests.app.test_tabs_beside_a_live_table import _Host
    from tests.vision.test_hand_score import laid

    read = ReadPhoto("h4.jpg", np.full((400, 900, 3), 90, np.uint8),
                     laid([(100, ["123456789m23456p19s", "7p"])], {15: [("9s", 0.86), ("8s", 0.1), ("7s", 0.02)]}))
    tab = PhotoTab(_Host(), PhotoSource(demo=lambda: (read, {}), read_file=lambda *_: read, upload_dir=None))
    tab._received(tmp_path / "h4.jpg", "h4.jpg")
    failed = tab.shown
    assert isinstance(failed, PhotoFailed) and failed.check == (15, 14)
    assert "not a win as read; it would be one if the 9 Bamboo (86% sure; row 1, tile 16) were 1 Bamboo" \
        in failed.reason.en
    assert "照讀到的不是胡牌；若第 1 列第 16 張的九條（86% 把握）其實是一條" in failed.reason.zh
    assert _framed(tab, 15) and _framed(tab, 14) and not _framed(tab, 13)
    _tapped(tab.build(), "photo-tile-15")
    _tapped(tab.build(), "photo-fix-1s")
    assert isinstance(tab.shown, PhotoPanel) and tab.shown.scored and dict(tab.shown.scored)[15] == "1s"

def test_a_tile_the_reader_changed_is_framed_and_the_sum_says_so(tmp_path: Path) -> None:
    """A 5z read as 6z at 55% (sure enough to pass unframed), the hand a win only as its second reading 5z: the list
    to correct showed a plain 5z beside the other, the sum under the form no doubt. Now the changed tile is framed,
    and the sum says the win needs a tile read otherwise."""
    from companion.app.ui_kit import ID_PHOTO_SUM
    from companion.app.view_photo import PhotoSource, PhotoTab
    from tests.app.test_tabs_beside_a_live_table import _Host, _texts
    from tests.vision.test_hand_score import laid

    read = ReadPhoto("p.jpg", np.full((400, 900, 3), 90, np.uint8),
                     laid([(100, ["123m456m789m123p45s55z", "6s"])], {15: [("6z", 0.55), ("5z", 0.41), ("7z", 0.02)]}))
    assert not read.dets.doubtful()[15]
    tab = PhotoTab(_Host(), PhotoSource(demo=lambda: (read, {}), read_file=lambda *_: read, upload_dir=None))
    tab._received(tmp_path / "p.jpg", "p.jpg")
    assert isinstance(tab.shown, PhotoPanel) and dict(tab.shown.scored)[15] == "5z"
    assert _framed(tab, 15) and not _framed(tab, 14)
    (said,) = _texts(_drawn(tab.build(), ID_PHOTO_SUM))  # type: ignore[arg-type]
    assert said.endswith("(only with 1 tile read otherwise is this a win: check the orange-framed tiles)")
    tab.host.t = lambda words: words.zh  # type: ignore[method-assign]
    (said,) = _texts(_drawn(tab.build(), ID_PHOTO_SUM))  # type: ignore[arg-type]
    assert said.endswith("（改讀了 1 張才是胡牌：請檢查橘框的牌）")


def test_a_refusal_says_its_way_out_as_the_app_does_and_nothing_of_the_command_line() -> None:
    """A refusal's way out was the scorer's command-line words, stripped here by a pattern that stopped matching when
    they changed (and the Score tab said no way out). The scorer gives it as data; the Score tab says it as its tiles
    to tap, the Live tab as its form's fields, in both languages, never as an option or `companion tai`."""
    from companion.app.photo_model import app_words
    from companion.rules.profiles import load_profile
    from companion.vision.hand_score import PhotoHandError, WayOut, score_photo
    from tests.vision.test_hand_score import laid

    refused = {WayOut.CORRECT_TILE: laid([(100, ["13579m13579p1357s1z2z", "3z"])]),
               WayOut.CLOSER: laid([(100, ["13579m13579p1357s1z2z", "3z"])], {3: [("7m", 0.4), ("1m", 0.3), ("9m", 0.2)]}),
               WayOut.BLANK_KONG: laid([(100, ["123456789m5p", "5p"]), (200, ["0x0x0x0x", "999s"])]),
               WayOut.WIN_TILE: laid([(100, ["123456m234678p4588s"])])}
    score_tab = {WayOut.CORRECT_TILE: ("; tap a tile read wrong below and pick what it really is",
                                       "；讀錯的牌請在下面點它，選它其實是哪張"),
                 WayOut.CLOSER: ("; photograph it closer, or tap a tile read wrong below and pick what it really is",
                                 "；請拍近一點，或在下面點讀錯的牌，選它其實是哪張"),
                 WayOut.BLANK_KONG: ("; if they are blank white dragons lying face up, enter the hand in "
                                     "\u201cMy hand\u201d (read:", "；若這是牌面空白的白板、朝上擺著，請到「我的手牌」輸入這手牌（讀到："),
                 WayOut.WIN_TILE: (", or tap the winning tile below, or type the whole hand with it in \u201cNo photo? "
                                   "Type the winning hand\u201d (read:", "，或在下面點胡的那張，或在「沒有照片？直接輸入胡的手牌」"
                                   "輸入整手牌（含胡的那張）（讀到：")}
    live_tab = {WayOut.CORRECT_TILE: ("; correct each tile read wrong in the form", "；讀錯的牌請在表格裡改正"),
                WayOut.CLOSER: ("; photograph it closer, or correct each tile read wrong in the form",
                                "；請拍近一點，或在表格裡改正讀錯的牌"),
                WayOut.BLANK_KONG: ("; if they are a concealed kong of blank white dragons lying face up, enter the "
                                    "White dragon in \u201cConcealed kongs (one tile each)\u201d (read:",
                                    "；若這是牌面空白的白板暗槓、朝上擺著，請在「暗槓的牌（每個暗槓一張）」填白板（讀到："),
                WayOut.WIN_TILE: (", or enter the winning tile in the form (read:", "，或在表格裡填上胡的那張（讀到：")}
    # (a note's own ways out, CONCEALED and SEVEN_ROB_ONE, are no refusal's: doubt_note words them)
    assert set(refused) == set(score_tab) == set(live_tab) == set(WayOut) - {WayOut.NONE, WayOut.CONCEALED,
                                                                           WayOut.SEVEN_ROB_ONE}
    for way, dets in refused.items():
        with pytest.raises(PhotoHandError) as bad:
            score_photo(dets, {}, load_profile(None))
        assert bad.value.way_out is way
        for live, (en, zh) in ((False, score_tab[way]), (True, live_tab[way])):
            said = app_words(bad.value, live)
            assert en in said.en and zh in said.zh, (way, live, said)
            assert "companion" not in said.en + said.zh and "--" not in said.en + said.zh  # the command line's means
            other = live_tab[way] if not live else score_tab[way]
            assert other[0].split(" (read:")[0] not in said.en and other[1].split("（讀到")[0] not in said.zh


def test_a_tile_the_player_picked_is_not_named_back_as_sure_and_suspect() -> None:
    """A review: score_picked(read, {11: 7m}, ctx) on a hand one tile from a win named the picked 7m back, "100%
    sure", as a tile to check. Now only the tiles read as they were are named."""
    from tests.vision.test_hand_score import laid

    read = ReadPhoto("p.jpg", np.full((400, 900, 3), 90, np.uint8),
                     laid([(100, ["123456789m23456p19s", "7p"])], {15: [("9s", 0.86), ("8s", 0.1), ("7s", 0.02)]}))
    said = score_picked(read, {14: Tile.S1}, {})
    assert isinstance(said, PhotoFailed) and said.check == (15,)
    assert "100%" not in said.reason.en and "100%" not in said.reason.zh
    assert "9 Bamboo (86% sure" in said.reason.en


def test_a_concealed_win_on_an_own_kong_replacement_takes_the_face_up_kong_as_concealed() -> None:
    """A review: one row 1111m, one 234m567m234p567p5s with 5s apart, won on the replacement after the winner's own
    kong and said 門清: the app took the kong as added and refused the photo for a called kong said not called."""
    from companion.hand import MeldKind
    from tests.vision.test_hand_score import laid

    read = ReadPhoto("p.jpg", np.full((400, 700, 3), 90, np.uint8),
                     laid([(100, ["1111m"]), (200, ["234m567m234p567p5s", "5s"])]))
    shown = score_picked(read, {}, PhotoContext(moment="after_kong", concealed="concealed").as_context())
    assert isinstance(shown, PhotoPanel), shown
    assert not [n.en for n in shown.notes if "added" in n.en]
    from companion.app.photo_model import _attempt

    win = _attempt(read, PhotoContext(moment="after_kong", concealed="concealed").as_context(), None)
    assert not isinstance(win, Exception), win
    assert [m.kind for m in win.win.melds] == [MeldKind.CKONG]


def test_a_photo_without_its_winning_tile_offers_its_waits_to_tap_on_the_tab(tmp_path: Path) -> None:
    """A review's 16 tiles (the winning discard still in the river) were refused "a winning hand shows 17" over "tap a
    tile read wrong", which was not the problem, and never pointed at the tab's typed-hand box. Now the refusal says
    the winning tile is missing and which tiles the hand waits on, each to tap; the one tapped is scored."""
    from companion.app.view_photo import PhotoSource, PhotoTab
    from tests.app.test_tabs_beside_a_live_table import _Host

    read = _row_photo("123m456m234p678p4588s")
    tab = PhotoTab(_Host(), PhotoSource(demo=lambda: (read, {}), read_file=lambda *_: read, upload_dir=None))
    tab._received(tmp_path / "row.jpg", "row.jpg")
    tab.set_context(win_type="discard", discarder="N")
    failed = tab.shown
    assert isinstance(failed, PhotoFailed) and failed.waits == ("3s", "6s")
    assert "the winning tile is not in the photo" in failed.reason.en and "照片裡沒有胡的那張" in failed.reason.zh
    assert "--" not in failed.reason.en + failed.reason.zh
    _tapped(tab.build(), "photo-wait-6s")
    won = tab.shown
    assert isinstance(won, PhotoPanel) and won.win_tile == "6s" and won.win_picked
    typed = score_typed_hand("123m456m234p678p4588s6s", {**tab.context.as_context()}, win_tile=Tile.S6)
    assert isinstance(typed, PhotoPanel) and (won.items, won.total) == (typed.items, typed.total)


@pytest.mark.parametrize(("kind", "flowers", "tai_item"), [("eight_flowers", "12345678f", "八仙過海"),
                                                           ("seven_flowers_rob", "1234567f", "七搶一")])
def test_the_form_scores_the_instant_wins_by_flowers(kind: str, flowers: str, tai_item: str) -> None:
    """The form's kinds of win offered only 自摸, 放槍 and 搶槓: neither 八仙過海 nor 七搶一 could be scored on the tab."""
    from companion.app.view_photo import PhotoSource, PhotoTab
    from tests.app.test_tabs_beside_a_live_table import _Host
    from tests.vision.test_hand_score import laid

    read = ReadPhoto("f.jpg", np.full((400, 900, 3), 90, np.uint8), laid([(100, ["123m456m234p678p4588s"]),
                                                                         (200, [flowers])]))
    tab = PhotoTab(_Host(), PhotoSource(demo=lambda: (read, {}), read_file=lambda *_: read, upload_dir=None))
    tab._received(Path("f.jpg"), "f.jpg")
    offered: set[str] = set()  # the form's kinds of win offer it
    stack: list[object] = [tab.build()]
    while stack:
        c = stack.pop()
        keys = {o.key for o in getattr(c, "options", None) or []}
        if "self_draw" in keys:  # (the kinds of win's drop-down)
            offered |= keys
        for name in ("content", "controls"):
            v = getattr(c, name, None)
            stack += v if isinstance(v, list) else [v] if v is not None and not isinstance(v, str) else []
    assert {"self_draw", "discard", "rob_kong", kind} <= offered, offered
    tab.set_context(win_type=kind, discarder="S")
    shown = tab.shown
    assert isinstance(shown, PhotoPanel), shown
    assert any(tai_item in item.zh for item, _ in shown.items), shown.items
    assert ("discarder" in PhotoContext(win_type=kind, discarder="S").as_context()) == (kind == "seven_flowers_rob")


def test_the_refused_photo_frames_the_tiles_to_check_and_the_corrected_as_the_command_draws_them(monkeypatch) -> None:
    """``companion score --annotate`` frames the tile a refusal names and colours the corrected ones (read.Marks);
    the app's photo of the same refused hand framed neither, so the two surfaces showed it differently."""
    import companion.app.photo_model as photo_model
    from companion.vision.read import Marks
    from tests.vision.test_hand_score import laid

    drawn: list[Marks] = []
    real = photo_model.annotated
    monkeypatch.setattr(photo_model, "annotated", lambda *a: (drawn.append(a[3]), real(*a))[1])
    read = ReadPhoto("h4.jpg", np.full((400, 900, 3), 90, np.uint8),
                     laid([(100, ["123456789m23456p19s", "7p"])], {15: [("9s", 0.86), ("8s", 0.1), ("7s", 0.02)]}))
    failed = score_read_photo(read, {})
    assert isinstance(failed, PhotoFailed) and failed.check == (15, 14)
    assert drawn[-1].check == frozenset({15, 14}) and not drawn[-1].corrected
    # a tile he corrected (the 2p read as 3p: no win with it, the photo as read one only with the 9s as 1s)
    failed = score_picked(read, {9: Tile.P3}, {})
    assert isinstance(failed, PhotoFailed) and drawn[-1].corrected == frozenset({9})
    assert drawn[-1].check == frozenset(failed.check)
    scored = score_picked(read, {15: Tile.S1}, {})  # the hand scored: his tile coloured as corrected too
    assert isinstance(scored, PhotoPanel) and drawn[-1].corrected == frozenset({15}) and not drawn[-1].check


def test_a_refusal_of_picked_tiles_opens_in_the_apps_words_with_their_number() -> None:
    """hand_score says a refusal of a hand holding picked tiles is theirs (PhotoHandError.corrected): the app says
    it of the tiles the player read otherwise, counted in proper English, and as read where he only confirmed
    tiles as the photo read them."""
    from tests.vision.test_hand_score import laid

    read = ReadPhoto("h.jpg", np.full((400, 900, 3), 90, np.uint8),
                     laid([(100, ["456m789m45s55z", "6s"]), (200, ["123m", "111z"])],
                          {6: [("9s", 0.98), ("8p", 0.01), ("7z", 0.005)]}))  # the 4s read surely as 9s: no win
    confirmed = score_picked(read, {0: Tile.M4}, {})
    assert isinstance(confirmed, PhotoFailed) and "not a win as read; it would be one" in confirmed.reason.en
    assert "照讀到的不是胡牌；若" in confirmed.reason.zh
    one = score_picked(read, {7: Tile.S6}, {})
    assert isinstance(one, PhotoFailed) and "not a win with the 1 tile you corrected; it would be" in one.reason.en
    assert "照你改過的 1 張牌不是胡牌；若" in one.reason.zh
    two = score_picked(read, {0: Tile.M7, 3: Tile.M4}, {})  # (the same tiles in another order)
    assert isinstance(two, PhotoFailed) and "with the 2 tiles you corrected" in two.reason.en


def test_a_win_assumed_on_tiles_of_different_wait_shapes_says_no_one_shape() -> None:
    """A typed hand with no winning tile set apart showed 獨聽（中洞） beside 「假設胡二萬、三萬、五萬、七萬、八萬、二筒、
    四筒或東」: edge and pair waits among them, the first tile's shape said as the group's (a review). Where the tiles
    assumed differ in shape the item is said plain; where they share it, with it."""
    from companion.app.photo_model import PhotoContext, PhotoPanel, _photo_shapes, score_typed_hand
    from companion.rules.waits import WaitShape
    from companion.rules.win import Win

    ctx = PhotoContext().as_context()
    mixed = score_typed_hand("123m456m789m123p345p東東", ctx)
    assert isinstance(mixed, PhotoPanel) and "假設胡二萬、三萬" in mixed.total.zh
    names = [w for w, _ in mixed.items]
    assert ui("item_shape", shape="中洞", shape_en="closed").zh not in "".join(w.zh for w in names)
    assert any(w.zh == "獨聽" and w.en == "Single wait" for w in names)
    same = score_typed_hand("456m567s345m345p111z66s", ctx)  # 四筒 and 六條, each a closed wait
    assert isinstance(same, PhotoPanel) and "假設胡四筒或六條" in same.total.zh
    assert any(w.zh.startswith("獨聽（中洞") for w, _ in same.items)
    # the photo's hand: each assumed tile's shapes, as the photo's guess is said beside them
    win = Win.from_dict({**ctx, "concealed": "123m456m789m123p35p東東", "win_tile": "4p", "melds": [], "flowers": ""})
    assert set(_photo_shapes(win, parse_tiles("4p3m東"))) == {WaitShape.CLOSED, WaitShape.EDGE, WaitShape.SINGLE}
