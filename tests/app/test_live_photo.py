"""A live win's hand read from a photo: bots' games entered tap by tap up to a win, the winner's hand (which the
bot knew and the live table never saw) rendered as a phone photo of it laid down, read, and filled into the win
form, which the table must then accept and score as the bots' game did."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.live_photo import winning_hand
from companion.app.live_model import LiveGame
from companion.app.live_offer import WinChance
from companion.app.live_photo import HandFill, fill_from_photo
from companion.app.photo_model import PhotoFailed, ReadPhoto, read_photo_file
from companion.app.words import Words
from companion.game import events as ev
from companion.game.check import replay
from companion.game.session import ledger_of
from companion.game.simulator import simulate
from companion.hand import Meld, MeldKind
from companion.tiles import Tile, format_tiles, parse_tiles
from companion.vision.hand_photo import lay_out
from companion.vision.read import Detections
from tests.app.test_live_model import enter
from training.synth.faces import sample_style
from training.synth.scene import Finish, Lighting, SceneStyle
from training.synth.scene_geometry import TileSize
from training.synth.scene_hand import hand_photo, widest_tile_px


def at_a_win(tmp_path: Path, seed: int, hands: int = 1, which: int = 0) -> tuple[LiveGame, ev.Won, list[ev.Event]]:
    """A bots' game entered up to its ``which``-th win (not entered), the win and the bots' whole log."""
    log, _ = simulate(seed, hands)
    k = [i for i, e in enumerate(log) if isinstance(e, ev.Won)][which]
    game = LiveGame(tmp_path / "table.sqlite")
    enter(game, log[:k])
    won = log[k]
    assert isinstance(won, ev.Won)
    return game, won, log


def hand_jpeg(log: list[ev.Event], won: ev.Won, out: Path, seed: int) -> Path:
    """A phone photo of the winner's hand laid down (a face style no model trained on), as a JPEG at ``out``."""
    style = SceneStyle(sample_style(random.Random(seed), "heldout"), TileSize(27.0, 36.0, 20.0, 0.45), "felt",
                       (0.12, 0.36, 0.16), Finish(blur=0.4, noise=0.01))
    win = winning_hand(log, log.index(won))
    frame, _ = hand_photo(win, style, size=(1280, 960), tile_px=min(70.0, widest_tile_px(win, style.tile, 1280)),
                          tilt=10.0, seed=seed, lighting=Lighting(azimuth=30.0, elevation=55.0, uneven=0.25,
                                                                  shadow=0.3))
    cv2.imwrite(str(out), frame, [cv2.IMWRITE_JPEG_QUALITY, 88])
    return out


def chance_of(game: LiveGame, won: ev.Won) -> WinChance:
    return next(c for c in game.offer().wins if c.seat == won.seat and c.kind is won.kind)


@pytest.mark.parametrize(("seed", "kind"), [(0, "discard"), (9, "self_draw"), (7, "robbed_kong"), (3, "discard"),
                                            (11, "discard")])  # 3: an exposed kong; 11: an added one
def test_a_photographed_hand_fills_the_win_form_and_the_table_scores_it_as_the_bots_game(
        tmp_path: Path, seed: int, kind: str) -> None:
    game, won, log = at_a_win(tmp_path, seed)
    assert won.kind.value == kind
    chance = chance_of(game, won)
    fill = fill_from_photo(read_photo_file(hand_jpeg(log, won, tmp_path / "hand.jpg", seed)), game.state, chance)
    assert isinstance(fill, HandFill), fill.reason.en if isinstance(fill, PhotoFailed) else fill
    assert fill.concealed == format_tiles(sorted(won.concealed))
    assert fill.drawn == (won.tile.code if won.kind is ev.WinKind.SELF_DRAW and won.tile else "")
    assert fill.notes == ()  # the photo agrees with the table everywhere
    assert fill.image[:2] == b"\xff\xd8"  # the photo as read, for the player to check against
    assert game.check_win(won.seat, won.kind, fill.concealed, fill.drawn, fill.kongs) is None
    n = len(game.events())
    assert game.win(won.seat, won.kind, fill.concealed, fill.drawn, fill.kongs, at=n) is None
    truth = ledger_of(replay(log[:log.index(won) + 1]))
    amounts = [[v for _, v in e.balances] for e in ledger_of(game.state).entries]
    assert amounts == [[v for _, v in e.balances] for e in truth.entries] and len(amounts) == 1


def test_a_concealed_kong_with_pale_backs_is_named_from_its_face_up_middle(tmp_path: Path) -> None:
    # seed 52's first win: a self-draw with a concealed kong of 5m, whose pale backs read as blank 白板
    game, won, log = at_a_win(tmp_path, 52, hands=2)
    chance = chance_of(game, won)
    assert chance.hidden_kongs == 1
    fill = fill_from_photo(read_photo_file(hand_jpeg(log, won, tmp_path / "hand.jpg", 52)), game.state, chance)
    assert isinstance(fill, HandFill), fill.reason.en if isinstance(fill, PhotoFailed) else fill
    assert (fill.concealed, fill.drawn, fill.kongs) == (format_tiles(sorted(won.concealed)), "9m", "5m")
    assert game.check_win(won.seat, won.kind, fill.concealed, fill.drawn, fill.kongs) is None


def hand_and_apart(read: ReadPhoto) -> tuple[list[int], int]:
    """The photo's concealed row (its first row's first group, as ``hand_photo`` lays a hand) and the tile set
    apart at its end, as detection indices."""
    row = lay_out(read.dets).rows[0]
    assert len(row) == 2 and len(row[1]) == 1
    return list(row[0].tiles), row[1].tiles[0]


def test_a_photo_that_is_no_win_still_fills_the_tiles_read_and_the_table_says_what_is_wrong(tmp_path: Path) -> None:
    game, won, log = at_a_win(tmp_path, 0)  # South wins on 7p with two melds laid in front
    read = read_photo_file(hand_jpeg(log, won, tmp_path / "hand.jpg", 0))
    assert isinstance(read, ReadPhoto) and won.tile is not None
    chance = chance_of(game, won)
    # one tile of the hand missed (a finger over it): the other tiles read are filled in, the table's melds left out
    missing = won.concealed[0]
    one = next(i for i, k in enumerate(read.dets.kind) if Tile(int(k)) == missing)
    fill = fill_from_photo(ReadPhoto(read.name, read.image, read.dets.take(np.arange(len(read.dets)) != one)),
                           game.state, chance)
    assert isinstance(fill, HandFill)
    assert Counter(parse_tiles(fill.concealed)) + Counter([missing]) == Counter(won.concealed)  # 7p lay apart
    assert any(n.en.startswith(f"{len(won.concealed) - 1} tiles in hand") for n in fill.notes)
    assert any("does not read as a winning hand" in n.en and "讀不成胡牌" in n.zh for n in fill.notes)
    why = game.check_win(won.seat, won.kind, fill.concealed, fill.drawn, fill.kongs)
    assert why is not None and why.zh and why.en  # refused until mended, and nothing logged
    n = len(game.events())
    assert game.check_win(won.seat, won.kind, format_tiles(won.concealed)) is None and len(game.events()) == n
    # only the hand photographed (no melds, not the tile won on): its tiles are the form's, none taken out
    hand, _apart = hand_and_apart(read)
    hand_only = read.dets.take(np.array(hand))
    fill = fill_from_photo(ReadPhoto(read.name, read.image, hand_only), game.state, chance)
    assert isinstance(fill, HandFill) and parse_tiles(fill.concealed) == tuple(sorted(won.concealed))
    assert game.check_win(won.seat, won.kind, fill.concealed, fill.drawn, fill.kongs) is None


def test_a_self_drawn_hand_read_as_no_win_takes_the_tile_set_apart_as_the_one_drawn(tmp_path: Path) -> None:
    game, won, log = at_a_win(tmp_path, 9)  # a self-draw with three melds
    read = read_photo_file(hand_jpeg(log, won, tmp_path / "hand.jpg", 9))
    assert isinstance(read, ReadPhoto) and won.tile is not None
    chance = chance_of(game, won)
    hand, apart = hand_and_apart(read)
    # the hand and the tile drawn set apart, the melds left out of the photo: the form as the table wants it
    fill = fill_from_photo(ReadPhoto(read.name, read.image, read.dets.take(np.array([*hand, apart]))),
                           game.state, chance)
    assert isinstance(fill, HandFill)
    assert (fill.concealed, fill.drawn) == (format_tiles(sorted(won.concealed)), won.tile.code)
    assert game.check_win(won.seat, won.kind, fill.concealed, fill.drawn, fill.kongs) is None
    # a tile of the hand hidden too: the rest filled, and the count said
    fill = fill_from_photo(ReadPhoto(read.name, read.image, read.dets.take(np.array([*hand[1:], apart]))),
                           game.state, chance)
    assert isinstance(fill, HandFill) and fill.drawn == won.tile.code
    assert len(parse_tiles(fill.concealed)) == chance.shown - 1
    assert any(n.en.startswith(f"{chance.shown - 1} tiles in hand") for n in fill.notes)
    # the tile drawn pushed into the hand's row: all there, the drawn one among them, and the player is told
    row = read.dets.take(np.array([*hand, apart]))
    obb = row.obb.copy()
    obb[-1, :2] = obb[-2, :2] + (obb[-2, :2] - obb[-3, :2])  # right beside the last tile of the row
    touching = Detections(obb, row.kind, row.face_up, row.score, row.top3_kind, row.top3_score, row.image_size)
    fill = fill_from_photo(ReadPhoto(read.name, read.image, touching), game.state, chance)
    assert isinstance(fill, HandFill) and fill.drawn == ""
    assert Counter(parse_tiles(fill.concealed)) == Counter(won.concealed) + Counter([won.tile])
    assert any("move it" in n.en and "自摸的那張" in n.zh for n in fill.notes)


def test_a_picture_with_no_tiles_is_refused_with_the_reason(tmp_path: Path) -> None:
    game, won, _ = at_a_win(tmp_path, 0)
    blank = tmp_path / "table.jpg"
    cv2.imwrite(str(blank), np.full((480, 640, 3), (40, 110, 50), np.uint8))
    fill = fill_from_photo(read_photo_file(blank), game.state, chance_of(game, won))
    assert isinstance(fill, PhotoFailed)
    assert "table.jpg" in fill.reason.en and "table.jpg" in fill.reason.zh
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 not a photo")
    fill = fill_from_photo(read_photo_file(broken), game.state, chance_of(game, won))
    assert isinstance(fill, PhotoFailed) and "broken.jpg" in fill.reason.en


def test_where_the_photo_and_the_table_disagree_is_said(tmp_path: Path) -> None:
    from companion.app.live_photo import _disagreements

    chance = WinChance(0, ev.WinKind.DISCARD, "5p", 10, 0, Words("", ""))
    pung = Meld(MeldKind.PUNG, (Tile.from_code("7z"),) * 3)
    chow = Meld(MeldKind.CHOW, tuple(Tile.from_code(c) for c in ("1m", "2m", "3m")))
    hidden = Meld(MeldKind.CKONG, (Tile.UNKNOWN,) * 4)
    kong9 = Meld(MeldKind.CKONG, (Tile.from_code("9s"),) * 4)
    assert _disagreements((pung, chow), (chow, pung), 2, 2, 10, chance) == []
    assert _disagreements((pung, kong9), (pung, hidden), 0, 3, 10, chance) == []  # flowers left out of the photo
    said = _disagreements((pung,), (pung, chow), 1, 2, 13, chance)
    assert [n.en.split(" ")[1] for n in said] == ["photo's", "photo", "tiles"]
    assert "chow 123m" in said[0].en and "吃" in said[0].zh
    assert _disagreements((pung, chow), (pung, hidden), 0, 0, 10, chance) != []  # the table's kong is missing


def test_the_benchmark_tallies_every_photo_once(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.live_photo import main

    assert main(["--seeds", "2", "--hands", "1"]) == 0
    out = capsys.readouterr().out
    wins = int(out.split("wins photographed: ")[1].split()[0])
    line = next(x for x in out.splitlines() if x.startswith("with the table"))
    counts = [int(x) for x in re.findall(r"(?:exact|as read|said|silent wrong|refused) (\d+)", line)]
    assert wins == 2 and sum(counts) == wins and "x" in out.splitlines()[-1]
