"""An old log's events that today's rules refuse, let in under the older rules of their stamp, are said where a
player sees them, in both languages and in the words of ``companion replay``: the Table tab's replay of the log
(``companion app LOG``) under its note, and the Live tab of a table it was imported into (``--from-log``). The app
took them without a word (a change review). A log with none says nothing more. Drawn without a browser."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from companion.app.live_model import LiveGame, effective_events
from companion.app.table_model import GameReplay, standing_events
from companion.app.view_live import ID_LIVE_OLDER_RULES, LiveTab
from companion.app.view_table import ID_OLDER_RULES, TableTab
from companion.app.words import Words, ui
from companion.game import events as ev
from companion.game.service import TableService
from companion.tiles import Tile
from tests.app.test_live_tab_moves import _Phone
from tests.app.test_tabs_beside_a_live_table import _idents, _texts
from tests.game.test_older_rules import CJK, old_events, old_lines

FIRST_EN = "this version refuses 2 events, replayed as kept under an earlier version's rules"
FIRST_ZH = "這個版本會拒絕其中 2 個事件"


class _Reader(_Phone):
    """A page in the language ``lang``."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def t(self, words: Words) -> str:
        return words.text(self.lang)


def _ids(control: object) -> set[str]:
    """The identifiers (``ident``'s) of the control and its children."""
    return {c.identifier for c in _idents(control)}  # type: ignore[arg-type]


def test_the_table_tab_says_an_old_log_s_events_let_in_under_older_rules() -> None:
    replay = GameReplay.from_lines(old_lines(old_events()), "old.jsonl")
    assert replay.older is not None
    assert FIRST_EN in replay.older.en and "the first: line 1: illegal event Seated" in replay.older.en
    assert not CJK.search(replay.older.en)
    assert FIRST_ZH in replay.older.zh and "第一個：第 1 行的入座不合法" in replay.older.zh
    for lang, said in (("en", replay.older.en), ("zh", replay.older.zh)):
        tab = TableTab(_Reader(lang), replay, ui("log_note", file="old.jsonl"))
        built = tab.build()
        assert said in _texts(built) and ID_OLDER_RULES in _ids(built), lang
    clean = GameReplay.from_lines(old_lines(old_events(stakes_over_cap=False)[:-1]), "kept.jsonl")
    assert clean.older is None
    built = TableTab(_Reader("en"), clean, ui("log_note", file="kept.jsonl")).build()
    assert ID_OLDER_RULES not in _ids(built) and not any("this version refuses" in x for x in _texts(built))


def test_a_table_file_through_a_pipe_is_said_by_its_stored_numbers_as_replay_says_them(tmp_path: Path) -> None:
    """``cat table.sqlite | companion app /dev/stdin``: the Table tab said "line 1" of the first stored event (the
    pipe was read, then opened again, empty, to learn whether it held a table file: a change review), where
    ``companion replay /dev/stdin`` and ``companion app table.sqlite`` say "stored event #0"."""
    table = tmp_path / "table.sqlite"
    TableService.import_jsonl(table, old_lines(old_events())).close()
    by_name = GameReplay.from_file(str(table))
    read, write = os.pipe()

    def pour() -> None:
        with os.fdopen(write, "wb") as pipe:
            pipe.write(table.read_bytes())

    pouring = threading.Thread(target=pour)
    pouring.start()
    try:
        piped = GameReplay.from_file(f"/dev/fd/{read}")
    finally:
        pouring.join()
        os.close(read)
    for replay in (by_name, piped):
        assert replay.older is not None
        assert "the first: stored event #0: illegal event Seated" in replay.older.en
        assert "第一個：存下的事件 #0（入座）不合法" in replay.older.zh
    assert piped.older == by_name.older and len(piped) == len(by_name)


def test_a_live_table_s_replay_on_the_table_tab_says_its_events_by_their_stored_number(tmp_path: Path) -> None:
    """The Live tab's Replay (the live log on the Table tab) named the 過水 win of an imported old log, a discard
    taken back before it, "line 8": its place among the events that stand, a line of no file, where the Live tab,
    ``companion app t.sqlite`` and ``companion replay`` say "stored event #9" (a change review)."""
    log = old_events(stakes_over_cap=False)
    log = log[:4] + [ev.Discarded(seat=0, tile=Tile.P5), ev.Retracted(target=4)] + log[4:]
    table = tmp_path / "t.sqlite"
    TableService.import_jsonl(table, old_lines(log)).close()
    game = LiveGame(table)
    try:
        events = game.events()
        live = game.older_rules()
        replay = GameReplay.of_table(events, table.name)
    finally:
        game.close()
    assert live is not None and "the first: stored event #9: illegal event Won" in live.en
    assert "存下的事件 #9（胡牌）不合法" in live.zh
    assert replay.older == live and GameReplay.from_file(str(table)).older == live
    standing = [e for _, e in standing_events(events)]  # the taps taken back left out, as the Live tab leaves them
    assert standing == effective_events(events) == replay.events and len(standing) == len(events) - 2


def test_the_live_tab_says_an_imported_log_s_events_let_in_under_older_rules(tmp_path: Path) -> None:
    table = tmp_path / "table.sqlite"
    TableService.import_jsonl(table, old_lines(old_events())).close()
    game = LiveGame(table)
    try:
        said = game.older_rules()
        assert said is not None  # by the table's stored number, as the Live tab numbers the events
        noted = game.service.older_rules()  # as the table service noted them at open: the same words
        assert noted is not None and (noted.zh, noted.en) == (said.zh, said.en)
        assert FIRST_EN in said.en and "the first: stored event #0: illegal event Seated" in said.en
        assert FIRST_ZH in said.zh and "存下的事件 #0（入座）不合法" in said.zh
        for lang, text in (("en", said.en), ("zh", said.zh)):
            tab = LiveTab(_Reader(lang), game)
            tab.visible = True
            built = tab.build()
            assert text in _texts(built) and ID_LIVE_OLDER_RULES in _ids(built), lang
    finally:
        game.close()
    clean = tmp_path / "clean.sqlite"
    TableService.import_jsonl(clean, old_lines(old_events(stakes_over_cap=False)[:-1])).close()
    game = LiveGame(clean)
    try:
        assert game.older_rules() is None
        tab = LiveTab(_Reader("en"), game)
        tab.visible = True
        assert ID_LIVE_OLDER_RULES not in _ids(tab.build())
    finally:
        game.close()
