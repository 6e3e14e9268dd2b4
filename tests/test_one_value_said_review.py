"""A change review's findings: one way to say a value a player (or a file) gave, a seat that is a yes/no refused,
plain words for a missing seat and for a tile, the pairs note left out beside eight flowers, one token loop for
hands and seen tiles, one slash in the stakes' Chinese, the English wind names in wind refusals, a replayed hand's
outcome said, and tai's JSON saying a false win unpaid."""

from __future__ import annotations

import inspect
import io
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion.app import hand_model
from companion.cli import main
from companion.commands import replay
from companion.game import events as ev
from companion.game import service
from companion.game.check import step
from companion.game.state import Outcome, OutcomeKind
from companion.game.text import IllegalEvent
from companion.hand import Hand, parse_seen
from companion.rules.said import json_said, json_written
from companion.rules.settlement import Stakes
from companion.rules.waits import seven_pairs
from companion.rules.win import WinInputError, parse_wind
from companion.tiles import NotationError, Tile, format_tiles, parse_tiles
from companion.vision import classify
from tests.game.game_support import face_down_table


def test_one_helper_says_a_value_in_the_checks_the_log_and_the_classifier() -> None:
    """The seat check said ``a seat is 0-3, got 2.5`` through events.as_written while the tile and claimed-tai
    checks said ``got 2.5 (a number with a point…)`` through json_said; classify called json.dumps itself."""
    check = sys.modules["companion.game.check"]  # (the package's check is the function)
    assert check.json_said is ev.json_said is service.json_said is classify.json_said is json_said
    state = face_down_table({})
    with pytest.raises(IllegalEvent) as seat:
        step(state, ev.Drew(seat=2.5))  # type: ignore[arg-type]
    with pytest.raises(IllegalEvent) as tai:
        step(state, ev.FalseWin(seat=1, claimed_tai=2.5))  # type: ignore[arg-type]
    said = json_said(2.5)
    assert seat.value.reason.en == f"a seat is 0-3, got {said[0]}" and seat.value.reason.zh.endswith(said[1])
    assert said[0] in tai.value.reason.en and said[1] in tai.value.reason.zh


@pytest.mark.parametrize("seat", [True, False])
def test_a_yes_no_is_no_seat(seat: bool) -> None:
    """Drew(seat=True) was taken as seat 1: a bool passes isinstance(int)."""
    with pytest.raises(IllegalEvent) as info:
        step(face_down_table({}), ev.Drew(seat=seat, tile=Tile.M5))
    assert info.value.reason.en == f"a seat is 0-3, got {json_said(seat)[0]}" and "True" not in str(info.value)


def test_long_text_is_cut_one_way_keeping_its_closing_quote() -> None:
    """json_said cut at 40 keeping the quote, events.as_written at 80 without it."""
    long = "x" * 200
    assert ev.as_written(long) == json_written(long) and json_written(long).endswith('…"')
    assert len(json_written(long)) == 80 and json_said(long)[0] == json_written(long, 40)
    assert json_written([1] * 100).endswith("…") and len(json_written([1] * 100)) == 80


@pytest.mark.parametrize(("value", "said"), [(2.5, "2.5 (a number with a point"), (True, "true (a yes/no)")])
def test_a_log_field_says_its_value_as_the_checks_do(value: Any, said: str) -> None:
    with pytest.raises(ev.EventError) as info:
        ev.from_dict({**ev.to_dict(ev.Drew(seat=1)), "seat": value})
    assert f"expected an integer, got {said}" in str(info.value)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", ["waits", "shanten"])
def test_eight_flowers_are_said_without_the_pairs_note(capsys: pytest.CaptureFixture[str], command: str) -> None:
    """The pairs note ("no seven- or eight-pairs win") came before "all eight flowers: already a win"."""
    out = _run(capsys, command, "--lang", "en", "11m22p33s44m55p66s77s88m 12345678f")
    assert "all eight flowers: already a win" in out and "pairs" not in out, out
    assert "seven- or eight-pairs" in _run(capsys, command, "--lang", "en", "11m22p33s44m55p66s77s88m")


def test_seven_pairs_is_a_rule_and_waits_does_not_load_the_app_models() -> None:
    """waits imported companion.app.hand_model (and the app's table and ledger models) for seven_pairs."""
    code = ("import sys, companion.commands.waits, companion.commands.shanten; "
            "print(sorted(m for m in sys.modules if m.startswith('companion.app.') and m.endswith('_model')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out
    assert seven_pairs(Hand.parse("11m22p33s44m55p66s77s88m"))
    assert not hasattr(hand_model, "seven_pairs") or hand_model.seven_pairs is seven_pairs


@pytest.mark.parametrize(("text", "seen"), [("5m、碰：三萬三萬三萬", "5m333m"), ("pung: 333m@L", "333m"),
                                            ("5m pung：　333m@L、7p", "5m333m7p"), ("碰:三萬、三萬、三萬", "333m"),
                                            ("5m 碰:三萬、三萬、三萬、7p", "5m333m7p")])
def test_a_meld_after_a_comma_or_with_a_space_after_its_colon_is_read(text: str, seen: str) -> None:
    """Both readers refused 5m、碰：三萬三萬三萬 as the meld kind 「5m、碰」, though 、 parts tiles; pung: 333m@L was
    told pung had 0 tiles."""
    assert format_tiles(parse_seen(text)) == format_tiles(parse_tiles(seen))
    hand = Hand.parse(f"123456789s11z {text.replace('5m', '4m')}", stage_free=True)
    assert [m.tiles for m in hand.melds] == [parse_tiles("333m")]


def test_one_token_loop_reads_a_hand_and_the_tiles_seen() -> None:
    assert "re.finditer" not in inspect.getsource(parse_seen) + inspect.getsource(Hand.parse)
    with pytest.raises(NotationError) as info:
        parse_seen("5m zz")
    assert info.value.position == 3  # (the text's, not the token's)


def test_the_stakes_chinese_writes_one_slash() -> None:
    """「要寫成 底/台」 beside 「底 30／台 10」: the Chinese writes the full-width slash."""
    with pytest.raises(WinInputError) as info:
        Stakes.parse("3x", "stakes")
    assert "底／台" in info.value.zh and "/" not in info.value.zh


def test_a_wind_refused_names_the_english_names_taken(capsys: pytest.CaptureFixture[str]) -> None:
    """South is taken, but the refusals (parse_wind, --seat's, with its Chinese) and the help did not say so."""
    with pytest.raises(WinInputError) as info:
        parse_wind("southeast", "seat_wind")
    assert "South" in str(info.value) and "South" in info.value.zh
    with pytest.raises(SystemExit):
        main(["score", "x.jpg", "--seat", "southeast"])
    english, _, chinese = capsys.readouterr().err.rpartition("error: ")[2].partition(" / 錯誤：")
    assert "its English name (East, South, West, North)" in english and "英文名 East、South、West、North" in chinese
    with pytest.raises(SystemExit):
        main(["score", "-h"])
    helped = " ".join(capsys.readouterr().out.split())
    assert "the winner's seat wind, E S W N or East South West North (default E)" in helped
    assert "胡牌者的門風，E S W N、East South West North 或 東 南 西 北（預設東）" in helped


@pytest.mark.parametrize(("kind", "lang", "said"), [(OutcomeKind.WIN, "en", "win"), (OutcomeKind.INSTANT_WIN, "zh", "特殊胡"),
                                                    (OutcomeKind.DRAW, "en", "exhaustive draw")])
def test_a_replayed_hand_with_no_line_says_its_outcome(kind: OutcomeKind, lang: str, said: str) -> None:
    """A hand with no lines whose outcome is not a draw printed "  #n " with nothing after it."""
    entry = SimpleNamespace(result=SimpleNamespace(outcome=Outcome(kind)), lines=())

    def pick(zh: str, en: str, sep: str = " / ") -> str:
        return zh if lang == "zh" else en

    assert replay._hand_said(entry, pick, ": ", lang) == said  # type: ignore[arg-type]


@pytest.mark.parametrize(("penalty", "unpaid"), [("none", True), ("claimed_tai", None)])
def test_tai_says_a_penalty_free_false_win_unpaid_as_the_ledger_does(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, penalty: str,
        unpaid: bool | None) -> None:
    """tai's JSON said penalty_rule none and total 0 where the ledger's says "unpaid": true."""
    house = tmp_path / "pen.toml"
    house.write_text(f'id = "pen"\ninherits = "atawmj_2009"\nname_zh = "罰"\nname_en = "pen"\n\n[switches]\n'
                     f'min_tai = 2\nfalse_win_penalty = "{penalty}"\n', encoding="utf-8")
    low = {"concealed": "789m11p66z", "win_tile": "1p", "win_type": "discard", "seat_wind": "N", "round_wind": "N",
           "melds": ["pung:222m@L", "chow:567m@L", "chow:567m@L"], "dealer": "E", "streak": 1, "discarder": "W"}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(low) + "\n"))
    result = json.loads(_run(capsys, "tai", "--profile", str(house)))
    assert result["false_win"] is True and result["penalty_rule"] == penalty and result.get("unpaid") is unpaid


def test_my_hand_leaves_the_pairs_note_beside_eight_flowers_as_the_commands_do() -> None:
    """A later change review: the commands left the pairs note out beside all eight flowers, My hand still said it."""
    with_flowers = hand_model.analyse("11m22p33s44m55p66s77s8m9p 12345678f")
    assert isinstance(with_flowers, hand_model.HandPanel)
    assert "seven- or eight-pairs" not in with_flowers.headline.en
    alone = hand_model.analyse("11m22p33s44m55p66s77s8m9p")
    assert isinstance(alone, hand_model.HandPanel) and "seven- or eight-pairs" in alone.headline.en


@pytest.mark.parametrize("version", [True, 2.0])
def test_a_bad_schema_version_is_said_as_every_value_is(version: object) -> None:
    """A later change review: the version said "got true" where a field says "got true (a yes/no)"."""
    with pytest.raises(ev.EventError) as info:
        ev.from_dict({"v": version, "type": "Discarded"})
    said, said_zh = json_said(version)
    assert info.value.reason.en.endswith(f"got {said}") and info.value.reason.zh.endswith(f"收到 {said_zh}")


def test_a_wind_refused_names_the_chinese_names_it_takes() -> None:
    """A later change review: 南 and 南風 were taken, but the refusal named only letters, English names and codes."""
    from companion.rules.win import WinInputError, parse_wind

    assert parse_wind("南風", "seat_wind") == parse_wind("South", "seat_wind")
    with pytest.raises(WinInputError) as info:
        parse_wind("Sth", "seat_wind")
    assert "Chinese name" in info.value.reason and "東、南、西、北" in info.value.zh
