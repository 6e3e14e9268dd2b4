"""Event serialisation: every type round-trips, errors name the problem, older schema versions load."""

from __future__ import annotations

import pytest

from companion.game import events as ev
from companion.game.simulator import Simulator
from companion.game.switches import MultiWin, Switches
from companion.game.view import public_view, render_table, unseen_counts
from companion.tiles import Tile


def test_every_event_type_round_trips() -> None:
    seen: dict[str, ev.Event] = {}
    for e in Simulator(seed=13).run(40):
        seen.setdefault(type(e).__name__, e)
    extra = [ev.Seated(players=("甲", "乙", "丙", "丁"), switches=Switches(multi_win=MultiWin.ALL, streak_cap=3)),
             ev.Won(seat=1, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=(Tile.M1,), kongs=(Tile.Z7,),
                    source=ev.EventSource.CAMERA),
             ev.ConcealedKong(seat=2), ev.Retracted(target=7, note="誤按"),
             ev.WinCorrected(seat=1, hand=2, concealed=(Tile.M1,), tile=Tile.M1, session=1, kongs=(Tile.Z2, Tile.P8))]
    for e in [*seen.values(), *extra]:
        assert ev.from_dict(ev.to_dict(e)) == e


@pytest.mark.parametrize(("data", "words"), [
    ({"type": "Drew", "seat": 1}, "schema version"),
    ({"v": 99, "type": "Drew", "seat": 1}, "newer"),
    ({"v": 1, "type": "Teleported"}, "unknown event type"),
    ({"v": 1, "type": "Drew", "seat": 1, "colour": "red"}, "unknown fields"),
    ({"v": 1, "type": "Drew", "seat": "one"}, "integer"),
    ({"v": 1, "type": "Drew", "seat": 1, "tile": "10m"}, "Drew"),
    ({"v": 1, "type": "Seated", "players": ["a", "b", "c", "d"], "switches": {"multi_win": "often"}}, "multi_win"),
])
def test_bad_saved_events_are_named(data: dict[str, object], words: str) -> None:
    with pytest.raises(ev.EventError, match=words):
        ev.from_dict(data)


@pytest.mark.parametrize(("data", "words"), [
    ([1, 2], "not an event"),
    ("Drew", "not an event"),
    ({"v": True, "type": "Drew", "seat": 1}, "schema version"),
    ({"v": 1, "type": "Seated", "players": "abcd"}, "expected a list"),
    ({"v": 1, "type": "Drew", "seat": 1, "tile": 5}, "tile code"),
    ({"v": 1, "type": "Seated", "players": ["a", "b", "c", "d"], "switches": ["x"]}, "map of switches"),
])
def test_malformed_saved_events_are_refused_in_both_languages(data: object, words: str) -> None:
    """Not an object, a boolean version, a text where a list belongs: a bilingual EventError, no crash."""
    with pytest.raises(ev.EventError, match=words) as info:
        ev.from_dict(data)  # type: ignore[arg-type]
    assert info.value.reason.zh and info.value.reason.en and info.value.reason.zh != info.value.reason.en


def test_each_event_is_stamped_with_the_rules_it_was_checked_under() -> None:
    """A code review: nothing in a log said under which rules its events were checked, so every log replayed as one
    kept before the rules. An event made now is stamped with today's; one of a log kept before the stamp (schema 3)
    reads as 0; the stamp round-trips and is no part of what happened (equality)."""
    drew = ev.Drew(seat=2, tile=Tile.M5)
    assert drew.rules_version == ev.RULES_VERSION >= 1
    assert ev.to_dict(drew)["rules_version"] == ev.RULES_VERSION
    assert ev.from_dict(ev.to_dict(drew)).rules_version == ev.RULES_VERSION
    old = ev.from_dict({"v": 3, "type": "Drew", "seat": 2, "tile": "5m"})
    assert old.rules_version == 0 and old == drew
    assert ev.from_dict({**ev.to_dict(drew), "rules_version": 0}).rules_version == 0  # an old table continued
    for bad, words in ((-1, "0 or more"), ("1", "integer"), (True, "integer")):
        with pytest.raises(ev.EventError, match=words) as info:
            ev.from_dict({**ev.to_dict(drew), "rules_version": bad})
        assert "rules_version" in info.value.reason.en and "rules_version" in info.value.reason.zh


def test_an_edited_stamp_is_refused_naming_the_event() -> None:
    """A change review: a schema-4 line without its stamp read as 0, "kept before the stamp", so deleting it from an
    edited line had the line replayed leniently; a stamp from the future was taken silently, and so was one on a
    schema-3 line (no version 3 wrote one). Each is refused, in both languages; a bad stamp names the event type
    it is on, and a value is said as the file writes it (true, null), not as Python does (True, None)."""
    drew = ev.to_dict(ev.Drew(seat=2, tile=Tile.M5))
    unstamped = {k: v for k, v in drew.items() if k != "rules_version"}
    cases = ((unstamped, "missing field rules_version", "缺少欄位 rules_version"),
             ({**drew, "rules_version": ev.RULES_VERSION + 1}, "newer version", "較新版本"),
             ({**drew, "rules_version": 10**40}, "newer version", "較新版本"),
             ({**unstamped, "v": 3, "rules_version": 1}, "schema version 3, which never", "格式版本 3"),
             ({**unstamped, "v": 3, "rules_version": 0}, "schema version 3, which never", "格式版本 3"),
             ({**drew, "rules_version": True}, "got true", "收到 true"),
             ({**drew, "rules_version": None}, "got null", "收到 null"),
             ({**drew, "rules_version": "1"}, 'got "1"', '收到 "1"'))
    for data, en, zh in cases:
        with pytest.raises(ev.EventError) as info:
            ev.from_dict(data)
        said = info.value.reason
        assert en in said.en and zh in said.zh and "Drew" in said.en and "Drew" in said.zh, said
        assert len(said.en) < 300, said  # (a stamp of 41 digits is cut short)
    for data in ({"v": 4, "rules_version": -1}, {"v": 4, "type": ["x"], "rules_version": -5}):
        with pytest.raises(ev.EventError, match="unknown event type"):  # what is wrong with the line, first
            ev.from_dict(data)
    with pytest.raises(ev.EventError, match="got true"):
        ev.from_dict({**drew, "seat": True})  # (every field: as the file writes it)
    assert ev.from_dict({**unstamped, "v": 3}).rules_version == 0


def test_a_check_is_asked_of_the_events_stamped_since_it_came_in() -> None:
    """The rule ``checked_since`` keeps: an event entered now is asked every check; one replayed from a log only the
    checks its stamp's version of the rules already had."""
    from companion.game.check_win import checked_since, replaying

    assert checked_since(1) and checked_since(ev.RULES_VERSION + 1)  # entered now
    with replaying():  # a log kept before the stamp
        assert not checked_since(1)
    with replaying(1):
        assert checked_since(1) and not checked_since(2)
        with replaying(0):  # (nested: the inner one holds, then the outer again)
            assert not checked_since(1)
        assert checked_since(1)
    assert checked_since(1)


def test_an_older_schema_version_is_upgraded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The upgrade path: pretend the current schema is 2, whose Drew renamed ``who`` to ``seat``."""
    monkeypatch.setattr(ev, "SCHEMA_VERSION", 2)

    def v1_to_v2(d: dict[str, object]) -> dict[str, object]:
        d = dict(d)
        if "who" in d:
            d["seat"] = d.pop("who")
        return d

    monkeypatch.setitem(ev.UPGRADES, 1, v1_to_v2)
    assert ev.from_dict({"v": 1, "type": "Drew", "who": 2, "tile": "5m"}) == ev.Drew(seat=2, tile=Tile.M5)
    assert ev.to_dict(ev.Drew(seat=2))["v"] == 2


def test_a_version_1_session_keeps_the_human_win_reading_it_was_kept_under() -> None:
    """Version 1 logs were kept when only a non-dealer before his own first discard got 人胡: their sessions
    read on under that switch; a version 2 session without the switch takes the default (spec §4.2)."""
    from companion.game.switches import HumanWinWindow

    old = ev.from_dict({"v": 1, "type": "Seated", "players": ["A", "B", "C", "D"]})
    assert isinstance(old, ev.Seated) and old.switches.human_win_window is HumanWinWindow.BEFORE_OWN_DISCARD
    old = ev.from_dict({"v": 1, "type": "Seated", "players": ["A", "B", "C", "D"], "switches": {"multi_win": "all"}})
    assert isinstance(old, ev.Seated) and old.switches.human_win_window is HumanWinWindow.BEFORE_OWN_DISCARD
    assert old.switches.multi_win is MultiWin.ALL
    new = ev.from_dict({"v": 2, "type": "Seated", "players": ["A", "B", "C", "D"]})
    assert isinstance(new, ev.Seated) and new.switches.human_win_window is HumanWinWindow.FIRST_GO_AROUND
    assert ev.from_dict({"v": 1, "type": "Drew", "seat": 2, "tile": "5m"}) == ev.Drew(seat=2, tile=Tile.M5)


def test_public_view_hides_other_hands_and_counts_unseen_copies() -> None:
    sim = Simulator(seed=4)
    for e in sim.run(1):
        if isinstance(e, ev.ConcealedKong | ev.Chowed):
            break
    state = sim.state
    view = public_view(state, viewer=0)
    assert view.own_concealed == tuple(t for t in state.seats[0].concealed_tiles if t.is_known)
    for s in range(1, 4):
        for m in view.seats[s].melds:
            if m.kind.value == "ckong":
                assert m.tiles == (Tile.UNKNOWN,) * 4
    unseen = unseen_counts(state, 0)
    for k in range(34):
        visible = sum(st.discards.count(Tile(k)) for st in state.seats)
        visible += sum(m.tiles.count(Tile(k)) for s, st in enumerate(state.seats) for m in st.melds
                       if s == 0 or m.kind.value != "ckong")
        visible += state.seats[0].concealed_tiles.count(Tile(k))
        assert unseen[k] == 4 - visible
    text = render_table(state)
    for s in range(1, 4):  # the printout shows how many tiles a seat holds, never which
        assert f"[{state.seats[s].size}]" in text


@pytest.mark.parametrize(("data", "said"), [
    ({"type": "discard", "seat": 9, "tile": "1m"}, '{"type": "discard", "seat": 9, "tile": "1m"}'),
    ({"v": 4, "type": None}, '{"v": 4, "type": null}'),
    ({"v": 4, "type": "Bogus", "ready": True}, '"Bogus"'),
    ({"v": 4, "type": "Discarded", "seat": 0, "tile": "1q", "rules_version": 1}, '"tile": "1q"'),
    ("Drew", '"Drew"'),
    (["Drew", True, None], '["Drew", true, null]'),
    ({"type": "Drew", "seat": None}, '{"type": "Drew", "seat": null}'),
    ({"v": 1, "type": "Drew", "seat": 1, "tile": "10m"}, '"tile": "10m"'),
])
def test_a_bad_line_is_said_back_as_the_file_writes_it(data: object, said: str) -> None:
    """A first-hour review: ``companion replay`` of a hand-edited log said the line back in Python's spelling
    (``{'type': 'discard', ...}``, ``unknown event type None in {'v': 4, 'type': None}``), which is not what the file
    holds; it is said as JSON, in both languages."""
    with pytest.raises(ev.EventError) as info:
        ev.from_dict(data)  # type: ignore[arg-type]
    reason = info.value.reason
    for text in (reason.en, reason.zh):
        assert said in text and "'" not in text and "None" not in text and "True" not in text, text
