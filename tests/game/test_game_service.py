"""The table service: commit before acknowledgement, refusals with reasons, subscribers, questions,
private hands, JSON-lines export/import, and a SIGKILL crash test."""

from __future__ import annotations

import errno
import io
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.game import events as ev
from companion.game.check import replay, step
from companion.game.service import Accepted, Choice, Question, Refused, ServiceError, TableService
from companion.game.simulator import Simulator
from companion.game.state import TableState
from companion.game.text import IllegalEvent, msg
from companion.tiles import Tile

HERE = Path(__file__).parent
HOST_SAYS_HOW = ("the host's terminal and log give the command to go on with it", "主機的終端機和紀錄檔裡有接著記錄的指令")


def sim_log(seed: int = 4, hands: int = 2) -> list[ev.Event]:
    return list(Simulator(seed=seed).run(hands))


def test_submit_commits_then_acknowledges_and_reopen_resumes(tmp_path: Path) -> None:
    log = sim_log()
    db = tmp_path / "table.db"
    with TableService(db) as service:
        seen: list[int] = []
        service.subscribe(lambda e, seq, state: seen.append(seq))
        for e in log[:50]:
            r = service.submit(e)
            assert isinstance(r, Accepted)
        assert seen == list(range(50))
    with TableService(db) as again:
        assert again.events() == log[:50]
        assert again.state == replay(log[:50])
        for e in log[50:]:
            assert again.submit(e).ok
        assert again.state == replay(log)


def test_refusal_carries_reason_and_is_not_stored(tmp_path: Path) -> None:
    log = sim_log()
    with TableService(tmp_path / "t.db") as service:
        for e in log[:3]:
            service.submit(e)
        r = service.submit(ev.Drew(seat=1, tile=Tile.M1))
        assert isinstance(r, Refused) and r.reason.zh and r.reason.en
        assert len(service.events()) == 3


def test_a_base_event_is_refused_not_raised(tmp_path: Path) -> None:
    """The app may hand the service anything: what is not a table event is refused with a reason."""
    with TableService(tmp_path / "t.db") as service:
        for bad in (ev.Event(), ev.SeatEvent(seat=1)):
            r = service.submit(bad)
            assert isinstance(r, Refused) and r.reason.key == "unknown_event" and r.reason.zh
        assert service.events() == []


def test_listener_failure_does_not_stop_the_table(tmp_path: Path) -> None:
    log = sim_log()
    with TableService(tmp_path / "t.db") as service:
        def boom(e: ev.Event, seq: int, state: object) -> None:
            raise RuntimeError("view crashed")

        unsubscribe = service.subscribe(boom)
        assert service.submit(log[0]).ok
        unsubscribe()
        assert service.submit(log[1]).ok


def test_questions_persist_and_an_answer_submits_its_event(tmp_path: Path) -> None:
    log = sim_log()
    db = tmp_path / "t.db"
    with TableService(db) as service:
        for e in log[:2]:
            service.submit(e)
        q = Question(msg("no_window"), (Choice(msg("decline"), log[2]), Choice(msg("retract_none"))))
        qid = service.ask(q)
    with TableService(db) as service:
        assert service.open_questions() == {qid: q}
        r = service.answer(qid, 0)
        assert isinstance(r, Accepted) and r.seq == 2
        assert service.open_questions() == {}
        with pytest.raises(ValueError, match="already answered"):
            service.answer(qid, 1)


def _statements(service: TableService) -> list[str]:
    out: list[str] = []
    assert service._db is not None
    db = service._db
    service._call(lambda: db.set_trace_callback(out.append))
    return out


def _one_transaction(statements: list[str], *parts: str) -> bool:
    """Every part appears, and no COMMIT falls between the first and the last of them."""
    at = [next(i for i, x in enumerate(statements) if p in x) for p in parts]
    return not any("COMMIT" in x for x in statements[min(at):max(at)])


def test_an_answer_commits_with_its_event(tmp_path: Path) -> None:
    """A crash between the event and the answer would reopen with the question open and its event done."""
    log = sim_log()
    with TableService(tmp_path / "t.db") as service:
        for e in log[:2]:
            service.submit(e)
        qid = service.ask(Question(msg("no_window"), (Choice(msg("decline"), log[2]),)))
        statements = _statements(service)
        assert isinstance(service.answer(qid, 0), Accepted)
        assert _one_transaction(statements, "INSERT INTO events", "UPDATE questions")


def test_a_private_hand_commits_with_its_hand_known_event(tmp_path: Path) -> None:
    log = sim_log()
    with TableService(tmp_path / "t.db") as service:
        for e in log[:6]:
            service.submit(e)
        statements = _statements(service)
        service.set_private_hand(2, "456p")
        assert service.events()[-1] == ev.HandKnown(seat=2)
        assert _one_transaction(statements, "INSERT INTO events", "INTO private")


def test_export_import_round_trip_and_private_hands(tmp_path: Path) -> None:
    log = sim_log()
    with TableService(tmp_path / "a.db") as service:
        for e in log:
            service.submit(e)
        service.set_private_hand(2, "123m456p")
        plain, full = io.StringIO(), io.StringIO()
        service.export_jsonl(plain)
        service.export_jsonl(full, include_private=True)
    assert "123m456p" not in plain.getvalue() and "123m456p" in full.getvalue()
    header = json.loads(full.getvalue().splitlines()[0])
    assert header["schema"] == "companion.table" and header["events"] == len(log)
    with TableService.import_jsonl(tmp_path / "b.db", full.getvalue().splitlines()) as copy:
        assert copy.events() == log
        assert copy.private_hand(2) == (Tile.M1, Tile.M2, Tile.M3, Tile.P4, Tile.P5, Tile.P6)


def test_a_private_hand_belongs_to_its_hand(tmp_path: Path) -> None:
    """A private hand is dropped when the next hand is dealt (it was carried on, stale, and a mid-hand export and
    import then logged a HandKnown the table never had); an export holding a stale one imports without it."""
    log = next(lg for lg in (sim_log(seed, 2) for seed in range(1, 50))
               if not any(isinstance(e, ev.Retracted) for e in lg))  # no undo: a HandKnown shifts positions
    second = [i for i, e in enumerate(log) if isinstance(e, ev.Dealt)][1]
    with TableService(tmp_path / "a.db") as service:
        for e in log[:40]:
            assert service.submit(e).ok
        service.set_private_hand(2, "123m456p")
        for e in log[40:second]:
            assert service.submit(e).ok
        assert service.private_hand(2) is not None  # the finished hand's tiles stay until the next deal
        for e in log[second:second + 5]:
            assert service.submit(e).ok
        assert service.private_hand(2) is None and not service.state.seats[2].known
        out = io.StringIO()
        service.export_jsonl(out, include_private=True)
        events = service.events()
    with TableService(tmp_path / "a.db") as again:
        assert again.private_hand(2) is None
    lines = out.getvalue().splitlines()
    header = json.loads(lines[0])
    assert header["private"] == {}
    header["private"] = {"2": "123m456p"}  # an export written by a version that carried it on
    with TableService.import_jsonl(tmp_path / "b.db", [json.dumps(header)] + lines[1:]) as copy:
        assert copy.events() == events and copy.private_hand(2) is None


def test_import_refuses_an_illegal_log_naming_the_line(tmp_path: Path) -> None:
    log = sim_log()
    lines = [json.dumps(ev.to_dict(e)) for e in log[:10]]
    lines.insert(5, json.dumps(ev.to_dict(ev.Drew(seat=3, tile=Tile.UNKNOWN))))
    with pytest.raises(ValueError, match="line=6"):
        TableService.import_jsonl(tmp_path / "c.db", lines)


def kept_before_the_stamp(e: ev.Event) -> dict[str, object]:
    """``e`` as a log kept before events were stamped with the version of the rules they were checked under wrote it
    (event schema 3, no ``rules_version``)."""
    d = ev.to_dict(e)
    del d["rules_version"]
    return {**d, "v": 3}


def test_import_takes_a_log_an_earlier_version_kept_as_the_app_opens_it(tmp_path: Path) -> None:
    """A change review: a game saved by an earlier version (its stakes over today's cap) opened as a table file and
    replayed, but ``--from-log`` (this import) checked it under today's rules and refused it. Kept again and
    exported, it stays a log of its day (unstamped), so it goes back in again."""
    log = sim_log()
    first = kept_before_the_stamp(log[0])
    assert first["type"] == "Seated"
    first["base"] = 20_000_000
    lines = [json.dumps(first)] + [json.dumps(kept_before_the_stamp(e)) for e in log[1:10]]
    with pytest.raises(IllegalEvent):  # entered today, refused
        step(TableState(), ev.from_dict({**first, "v": ev.SCHEMA_VERSION, "rules_version": ev.RULES_VERSION}))
    out = io.StringIO()
    with TableService.import_jsonl(tmp_path / "old.db", lines) as copy:
        assert len(copy.events()) == 10 and copy.state.base == 20_000_000
        assert {e.rules_version for e in copy.events()} == {0}
        copy.export_jsonl(out)
    assert {json.loads(x)["rules_version"] for x in out.getvalue().splitlines()[1:]} == {0}
    with TableService.import_jsonl(tmp_path / "again.db", out.getvalue().splitlines()) as again:
        assert again.state.base == 20_000_000
    with TableService(tmp_path / "old.db") as reopened:  # and the table file opens again
        assert reopened.state.base == 20_000_000


_LOOK_ALIKE = {"players": ["Lin", "Lin\u200b", "老王", "小美"]}  # a zero-width space: two players who look the same
_OVER_THE_CAP = {"base": 900_000_000_000}


@pytest.mark.parametrize(("change", "key"), [(_LOOK_ALIKE, "players"), (_OVER_THE_CAP, "stakes_big")])
def test_import_refuses_a_log_written_today_that_this_version_refuses_when_entered(
        tmp_path: Path, change: dict[str, object], key: str) -> None:
    """A code review: ``--from-log`` took any log under the leniency meant for logs kept before a rule existed, so a
    log written by this version, edited to seat two look-alike names or stakes over the cap, was imported into a
    live table whose same entry is refused. Its events are stamped with today's rules now and checked by them."""
    log = sim_log()
    first = {**ev.to_dict(log[0]), **change}
    assert first["rules_version"] == ev.RULES_VERSION
    lines = [json.dumps(first)] + [json.dumps(ev.to_dict(e)) for e in log[1:10]]
    with pytest.raises(IllegalEvent) as refused:
        TableService.import_jsonl(tmp_path / "forged.db", lines)
    assert refused.value.reason.key == key and ("line", "1") in refused.value.evidence
    assert not (tmp_path / "forged.db").exists()
    old = [json.dumps({**kept_before_the_stamp(log[0]), **change})] + \
        [json.dumps(kept_before_the_stamp(e)) for e in log[1:10]]
    with TableService.import_jsonl(tmp_path / "old.db", old) as kept:  # the same log kept before the stamp: as kept
        assert len(kept.events()) == 10


def test_a_table_file_s_event_stamped_today_is_replayed_under_today_s_rules(tmp_path: Path) -> None:
    """The table file keeps each event's stamp: one stamped today that today's rules refuse (written into the file
    by hand) does not open; the same event unstamped, kept before the stamp, does."""
    first = {**ev.to_dict(sim_log()[0]), **_LOOK_ALIKE}
    for body, opens in ((first, False), ({**first, "rules_version": 0}, True)):
        store = tmp_path / f"t{opens}.sqlite"
        TableService(store).close()
        with sqlite3.connect(store) as db:
            db.execute("INSERT INTO events (seq, body) VALUES (0, ?)", (json.dumps(body),))
        if opens:
            with TableService(store) as kept:
                assert len(kept.state.players) == 4
        else:
            with pytest.raises(ServiceError, match="stored event #0 cannot be replayed"):
                TableService(store)


def test_a_log_the_app_writes_today_is_stamped_and_goes_back_into_a_table(tmp_path: Path) -> None:
    """Every event entered is stored stamped with today's rules (one read from an older log and entered again too,
    having been checked by them now); the export carries the stamps, and ``--from-log`` and ``companion replay``
    take it back as it was."""
    from dataclasses import replace

    from companion.cli import main

    log = sim_log(seed=6, hands=2)
    out = io.StringIO()
    with TableService(tmp_path / "live.db") as live:
        assert live.submit_many(log[:-1]).ok
        assert live.submit(replace(log[-1], rules_version=0)).ok  # entered now: checked now
        assert {e.rules_version for e in live.events()} == {ev.RULES_VERSION}
        live.export_jsonl(out)
    lines = out.getvalue().splitlines()
    assert {json.loads(x)["rules_version"] for x in lines[1:]} == {ev.RULES_VERSION}
    with TableService.import_jsonl(tmp_path / "again.db", lines) as again:
        assert again.events() == log and {e.rules_version for e in again.events()} == {ev.RULES_VERSION}
    with TableService(tmp_path / "live.db") as reopened:
        assert {e.rules_version for e in reopened.events()} == {ev.RULES_VERSION}
    saved = tmp_path / "saved.jsonl"
    saved.write_text(out.getvalue(), "utf-8")
    assert main(["replay", str(saved), "--quiet"]) == 0


def test_killed_writer_loses_no_acknowledged_event(tmp_path: Path) -> None:
    """A child submitting events is SIGKILLed after a seeded number of acknowledgements (the kill lands
    wherever the child is at that moment). Whatever the timing, every acknowledged event must be in
    the database on reopen, the stored log must be a legal prefix, and the next child resumes it."""
    log = sim_log(seed=6, hands=2)
    log_file = tmp_path / "log.jsonl"
    log_file.write_text("".join(json.dumps(ev.to_dict(e), ensure_ascii=False) + "\n" for e in log), "utf-8")
    db = tmp_path / "crash.db"
    rng = random.Random(1234)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parents[1]), os.environ.get("PYTHONPATH", "")])}
    acked_total = -1
    for _round in range(4):
        child = subprocess.Popen([sys.executable, str(HERE / "crash_child.py"), str(db), str(log_file)],
                                 stdout=subprocess.PIPE, text=True, env=env)
        assert child.stdout is not None
        first = child.stdout.readline().split()
        assert first[0] == "start" and int(first[1]) >= acked_total + 1
        wait_for = rng.randint(1, 60)
        for _ in range(wait_for):
            line = child.stdout.readline()
            if not line.startswith("ack"):
                break
            acked_total = int(line.split()[1])
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        with TableService(db) as reopened:
            stored = reopened.events()
        assert len(stored) >= acked_total + 1
        assert stored == log[: len(stored)]
    done = subprocess.run([sys.executable, str(HERE / "crash_child.py"), str(db), str(log_file)],
                          capture_output=True, text=True, env=env, check=True)
    assert done.stdout.rstrip().endswith("done")
    with TableService(db) as final:
        assert final.events() == log
        assert final.state == replay(log)


def test_a_listener_may_not_submit_on_the_writer_thread(tmp_path: Path) -> None:
    log = sim_log()
    errors: list[Exception] = []
    with TableService(tmp_path / "t.db") as service:
        def resubmit(e: ev.Event, seq: int, state: object) -> None:
            try:
                service.submit(log[1])
            except Exception as err:  # recorded for the assertion
                errors.append(err)

        service.subscribe(resubmit)
        assert service.submit(log[0]).ok
    assert errors and "writer thread" in str(errors[0])


def test_start_session_takes_the_profile_switches(tmp_path: Path) -> None:
    with TableService(tmp_path / "t.db") as service:
        r = service.start_session(("阿明", "小美", "老王", "Lin"), profile="sml_2026", base=100, per_tai=20)
        assert isinstance(r, Accepted)
        assert r.state.switches.multi_win.value == "nearest_unless_three" and r.state.base == 100
        assert isinstance(service.start_session(("a", "a", "b", "c")), Refused)
        r2 = service.start_session(("a", "b", "c", "d"), profile="no_such_profile")
        assert isinstance(r2, Refused) and "{" not in r2.reason.zh + r2.reason.en, r2.reason  # it said "{why}"
        assert r2.reason.zh.startswith("規則設定 no_such_profile 無法載入：") and "no_such_profile" in r2.reason.en
        assert isinstance(r2, Refused) and r2.reason.key == "profile"


def test_a_private_hand_during_play_is_logged_only_as_known(tmp_path: Path) -> None:
    log = sim_log()
    with TableService(tmp_path / "t.db") as service:
        for e in log[:6]:
            service.submit(e)
        assert service.state.in_hand
        service.set_private_hand(1, "123m")
        assert service.events()[-1] == ev.HandKnown(seat=1) and service.state.seats[1].known
        out = io.StringIO()
        service.export_jsonl(out)
        assert "123m" not in out.getvalue()


def test_concurrent_submitters_are_serialised(tmp_path: Path) -> None:
    import threading

    from companion.game.bots import BotStyle

    # retractions name log positions, so this log has none (they would be refused after interleaving,
    # which is the point of naming the position)
    log = list(Simulator(seed=4, style=BotStyle(retract=0.0)).run(1))
    with TableService(tmp_path / "t.db") as service:
        for e in log[:4]:  # into the hand
            service.submit(e)
        results: list[bool] = []

        def player(seat: int) -> None:
            for _ in range(20):
                results.append(service.submit(ev.HandKnown(seat=seat, source=ev.EventSource.CAMERA)).ok)

        threads = [threading.Thread(target=player, args=(s,)) for s in range(4)]
        for th in threads:
            th.start()
        for e in log[4:60]:
            assert service.submit(e).ok
        for th in threads:
            th.join()
        assert all(results) and len(results) == 80
        assert len(service.events()) == 56 + 4 + 80
        assert replay(service.events()) == service.state
    with TableService(tmp_path / "t.db") as again:
        assert again.events() == service.events()


def test_a_damaged_database_is_refused_naming_the_event(tmp_path: Path) -> None:
    import sqlite3

    from companion.game.service import ServiceError

    log = sim_log()
    db = tmp_path / "t.db"
    with TableService(db) as service:
        for e in log[:10]:
            service.submit(e)
    con = sqlite3.connect(db)
    con.execute("UPDATE events SET body = ? WHERE seq = 6", (json.dumps(ev.to_dict(ev.Drew(seat=2))),))
    con.commit()
    con.close()
    with pytest.raises(ServiceError, match="#6"):
        TableService(db)


def test_an_event_that_would_not_read_back_is_refused_so_the_game_still_opens(tmp_path: Path) -> None:
    """The rules do not look at types; the log's reader does. A float stake, a missing source or a tile given
    as text was stored and then made the saved game unopenable: now each is refused, naming the field."""
    import dataclasses

    log = sim_log()
    db = tmp_path / "t.db"
    with TableService(db) as service:
        r = service.submit(dataclasses.replace(log[0], base=100.0))  # type: ignore[call-arg]
        assert isinstance(r, Refused) and r.reason.key == "stakes" and "100.0" in r.reason.en and r.reason.zh
        i = next(k for k in range(10, len(log)) if isinstance(log[k], ev.Discarded))
        for e in log[:i]:
            assert service.submit(e).ok
        nxt = log[i]
        assert isinstance(nxt, ev.Discarded)
        assert isinstance(service.submit(dataclasses.replace(nxt, source=None)), Refused)
        assert isinstance(service.submit(dataclasses.replace(nxt, tile=nxt.tile.code)), Refused)  # type: ignore[arg-type]
        assert service.submit(nxt).ok
    with TableService(db) as again:
        assert again.events() == log[:i + 1]


def _exported(path: Path, events: list[ev.Event]) -> list[str]:
    """``events`` stored at ``path`` and exported: the export's lines."""
    out = io.StringIO()
    with TableService(path) as service:
        for e in events:
            service.submit(e)
        service.export_jsonl(out)
    return out.getvalue().splitlines()


def _with_a_gap(lines: list[str]) -> list[str]:
    """An export with an event missing from the middle (its header counting the lines left): refused at its line."""
    bad = lines[:1] + lines[1:150] + lines[151:]
    bad[0] = json.dumps({**json.loads(lines[0]), "events": len(bad) - 1})
    return bad


def test_an_export_cut_short_is_refused_and_a_refused_import_leaves_no_store(tmp_path: Path) -> None:
    log = sim_log()
    lines = _exported(tmp_path / "a.db", log)
    with pytest.raises(ev.EventError, match="cut short") as info:
        TableService.import_jsonl(tmp_path / "b.db", lines[:100])
    assert "檔案不完整" in info.value.reason.zh and not (tmp_path / "b.db").exists()
    bad = _with_a_gap(lines)
    with pytest.raises(IllegalEvent):
        TableService.import_jsonl(tmp_path / "c.db", bad)
    assert not list(tmp_path.glob("c.db*"))  # not a game cut off at the bad line
    with TableService.import_jsonl(tmp_path / "c.db", lines) as copy:  # and the retry works
        assert copy.events() == log


def test_an_export_with_more_events_than_its_header_says_is_not_called_cut_short(tmp_path: Path) -> None:
    """A review repeated a line of an export, and joined two exports: both were "cut short" ("只有 824 個 … 說有
    412 個"). Too many events are said as such, naming the first line past the count; a second header is named."""
    from companion.game.service import read_jsonl

    log = sim_log()
    lines = _exported(tmp_path / "a.db", log)
    repeated = [*lines[:100], lines[99], *lines[100:]]
    with pytest.raises(ev.EventError) as info:
        read_jsonl(repeated)
    want, got = len(log), len(log) + 1
    assert info.value.reason.en == (f"the export holds {got} events, more than the {want} its header says (those from "
                                    f"line {want + 2} on are past the count): an event repeated, or two files joined")
    assert f"比檔頭說的 {want} 個多" in info.value.reason.zh and "只有" not in info.value.reason.zh
    with pytest.raises(ev.EventError) as info:
        read_jsonl(lines + lines)
    assert info.value.reason.en.startswith(f"line {len(lines) + 1}: a second export header (the first is on line 1)")
    assert "兩個匯出檔接在一起" in info.value.reason.zh
    header = json.loads(lines[0])
    with pytest.raises(ev.EventError, match="cannot be negative"):
        read_jsonl([json.dumps({**header, "events": -1}), *lines[1:]])
    assert [e for _, e in read_jsonl(lines)[0]] == log


def test_a_store_has_one_service_at_a_time_and_a_bad_file_is_named(tmp_path: Path) -> None:
    """A second service on an open store is refused (its submits would fail against the first one's events);
    a file that is no table database is named in the error, not a bare sqlite message."""
    from companion.game.service import ServiceError

    db = tmp_path / "t.db"
    with TableService(db) as first:
        with pytest.raises(ServiceError, match="open in another table service"):
            TableService(db)
        assert first.submit(sim_log()[0]).ok
    with TableService(db) as again:  # closed: free again
        assert len(again.events()) == 1
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(ServiceError, match="junk.db") as info:
        TableService(junk)
    assert "牌局檔無法使用" in str(info.value)


def test_a_submit_that_timed_out_is_never_committed_later(tmp_path: Path) -> None:
    """The writer is held busy; a submit that gives up waiting is withdrawn, not stored behind the caller's
    back (before, it was committed when the writer got to it, and a retry was refused or doubled). It is a
    ServiceError that says so in both languages, as the store's other failures are (a review's escaped the tap)."""
    import threading
    from concurrent.futures import Future

    from companion.game.service import ServiceError

    log = sim_log()
    with TableService(tmp_path / "t.db") as service:
        for e in log[:10]:
            assert service.submit(e).ok
        release = threading.Event()
        service._jobs.put((release.wait, Future()))  # the writer is busy until released
        with pytest.raises(TimeoutError) as late:
            service.submit(log[10], timeout=0.01)
        assert isinstance(late.value, ServiceError) and "t.db：牌局檔 0.01 秒內沒有回應" in str(late.value)
        release.set()
        assert service.submit(log[10]).ok  # the retry is the only copy
        assert service.events() == log[:11]


def test_undo_covers_private_hands(tmp_path: Path) -> None:
    """An undone HandKnown hides the seat's private hand, and an undone deal brings the last hand's back, the
    same live, in an export and after reopening (the live service kept showing an undone one)."""
    log = next(lg for lg in (sim_log(seed, 2) for seed in range(1, 50))
               if not any(isinstance(e, ev.Retracted) for e in lg))
    second = [i for i, e in enumerate(log) if isinstance(e, ev.Dealt)][1]
    db = tmp_path / "t.db"
    with TableService(db) as service:
        for e in log[:40]:
            assert service.submit(e).ok
        service.set_private_hand(2, "123m456p")
        assert service.submit(ev.Retracted(target=len(service.events()) - 1)).ok  # the HandKnown
        assert service.private_hand(2) is None
        out = io.StringIO()
        service.export_jsonl(out, include_private=True)
        assert json.loads(out.getvalue().splitlines()[0])["private"] == {}
        service.set_private_hand(2, "123m456p")
        for e in log[40:second + 1]:
            assert service.submit(e).ok
        assert service.private_hand(2) is None  # a new hand
        assert service.submit(ev.Retracted(target=len(service.events()) - 1)).ok  # the deal undone
        assert service.private_hand(2) == (Tile.M1, Tile.M2, Tile.M3, Tile.P4, Tile.P5, Tile.P6)
    with TableService(db) as again:
        assert again.private_hand(2) == (Tile.M1, Tile.M2, Tile.M3, Tile.P4, Tile.P5, Tile.P6)


def test_a_question_whose_choice_cannot_be_stored_is_refused(tmp_path: Path) -> None:
    """A question is stored with its choices' events: one that would not read back (a None note, a tile as text)
    is refused naming the choice, where it was stored and the saved game could not be opened again."""
    from companion.game.service import ServiceError

    log = sim_log()
    db = tmp_path / "t.db"
    with TableService(db) as service:
        for e in log[:10]:
            assert service.submit(e).ok
        for bad in (ev.Retracted(target=9, note=None), ev.Drew(seat=2, tile="5m")):  # type: ignore[arg-type]
            with pytest.raises(ServiceError, match="choice 0"):
                service.ask(Question(msg("no_window"), (Choice(msg("decline"), bad),)))
        assert service.open_questions() == {}
    with TableService(db) as again:
        assert again.events() == log[:10]


def test_dealer_choice_refuses_impossible_dice_even_where_unused(tmp_path: Path) -> None:
    from dataclasses import replace as with_

    from companion.game.session import switches_for
    from companion.game.switches import FirstDealer

    with TableService(tmp_path / "t.db") as service:
        sw = with_(switches_for("atawmj_2009"), first_dealer=FirstDealer.EAST_DEALS)
        assert service.submit(ev.Seated(players=("A", "B", "C", "D"), switches=sw)).ok
        r = service.submit(ev.DealerChosen(dealer=0, dice=(0, 99), second_dice=(7, 7, 7, 7)))
        assert isinstance(r, Refused) and r.reason.key == "dice"
        assert service.submit(ev.DealerChosen(dealer=0)).ok


def test_the_service_says_its_errors_in_both_languages(tmp_path: Path) -> None:
    """What the app shows when the service refuses a call (a closed service, a bad seat, an answered question, a
    stored event today's rules refuse) is in Chinese as well as English."""
    import sqlite3

    from companion.game.service import ServiceError

    log = sim_log()
    db = tmp_path / "t.db"
    service = TableService(db)
    for e in log[:6]:
        assert service.submit(e).ok
    with pytest.raises(ValueError, match="座位必須是 0-3，收到 7"):
        service.set_private_hand(7, "123m")
    qid = service.ask(Question(msg("no_window"), (Choice(msg("decline"), None),)))
    service.answer(qid, 0)
    with pytest.raises(ValueError, match="already answered.*已回答"):
        service.answer(qid, 0)
    service.close()
    with pytest.raises(ServiceError, match="closed / 牌局服務已關閉"):
        service.submit(log[6])
    with sqlite3.connect(db) as raw:  # a stored event the rules refuse: the dice of the next throw changed
        raw.execute("UPDATE events SET body = ? WHERE seq = 2", (json.dumps(ev.to_dict(ev.DiceRolled(dice=(9, 9, 9)))),))
    with pytest.raises(ServiceError) as info:
        TableService(db)
    assert "cannot be replayed" in str(info.value) and "無法重播" in str(info.value) and "骰子" in str(info.value)


def _six_events_kept(tmp_path: Path) -> Path:
    """A table file holding the first six events of a bots' hand, closed."""
    db = tmp_path / "t.db"
    service = TableService(db)
    for e in list(Simulator(5).run(1))[:6]:
        assert service.submit(e).ok
    service.close()
    return db


@pytest.mark.parametrize(("tiles", "why"), [("zzz", "suit letter “z”"), ("1m1m1m1m1m", "5 copies of 1m")])
def test_a_kept_private_hand_that_cannot_be_read_is_refused_by_seat(tmp_path: Path, tiles: str, why: str) -> None:
    """A damaged or hand-edited table file: a review's replay of one ended in the notation's traceback, and the app
    caught only the service's own error. Now both refuse it naming the seat, in both languages, and the file stays."""
    from companion.game.service import ServiceError, read_log

    db = _six_events_kept(tmp_path)
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA journal_mode=DELETE")  # (as a copy made by another tool: opening sets it back to WAL)
        raw.execute("INSERT INTO private VALUES (2, ?, NULL)", (tiles,))
    raw.close()
    before = db.read_bytes()
    with pytest.raises(ServiceError, match=f"seat 2's kept private hand cannot be read: {why}") as info:
        TableService(db)
    assert db.read_bytes() == before  # refused before anything was written (a review saw its header change)
    assert "2號位存下的私人手牌無法讀取" in str(info.value)
    with pytest.raises(ev.EventError, match=why) as read:
        read_log(db)
    assert "2號位" in read.value.reason.zh
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT count(*) FROM events").fetchone() == (6,)


def test_a_stored_event_that_is_not_json_is_refused_in_both_languages(tmp_path: Path) -> None:
    from companion.game.service import ServiceError

    db = _six_events_kept(tmp_path)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE events SET body = '{bad' WHERE seq = 3")
    with pytest.raises(ServiceError) as info:
        TableService(db)
    en, zh = str(info.value).split(" / ")
    assert "event #3 cannot be replayed: not JSON" in en and "內容不是 JSON" in zh and "Expecting" not in zh
    assert "at column 2: a key must be a text in double quotes" in en and "Expecting" not in en  # (plain words)


def test_a_log_line_that_is_not_json_is_said_in_plain_words(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    # "not JSON: Unterminated string starting at: line 1 column 66 (char 65)", English alone (a review)
    from companion.cli import main

    log = tmp_path / "cut.jsonl"
    log.write_text('{"v": 4, "type": "Seated", "players": ["Lin\n', "utf-8")
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert "not JSON at column 40: a text is not closed by its double quote" in err
    assert "第 40 個字元：字串少了結尾的雙引號" in err and "Unterminated" not in err and "char" not in err


def test_a_log_saved_with_a_byte_order_mark_reads_as_without_it() -> None:
    from companion.game.events import to_dict
    from companion.game.service import read_jsonl
    from companion.game.simulator import Simulator

    raw = "".join(json.dumps(to_dict(e), ensure_ascii=False) + "\n" for e in Simulator(3).run(1)).encode()
    plain, _ = read_jsonl(raw.splitlines())
    marked, _ = read_jsonl(("\ufeff".encode() + raw).splitlines())
    assert marked == plain and len(plain) > 100
    as_text, _ = read_jsonl(("\ufeff" + raw.decode("utf-8")).splitlines())
    assert as_text == plain


def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    """A review opened another program's SQLite file: it became an empty game, four tables and WAL mode added."""
    import sqlite3

    from companion.game.service import ServiceError

    theirs = tmp_path / "photos.db"
    with sqlite3.connect(theirs) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("INSERT INTO photos (name) VALUES ('beach.jpg')")
    db.close()
    kept = theirs.read_bytes()
    with pytest.raises(ServiceError, match="not a table file of this program") as info:
        TableService(theirs)
    assert "photos" in str(info.value) and "不是這個程式的牌局檔" in str(info.value)
    assert theirs.read_bytes() == kept and not Path(f"{theirs}-wal").exists() and not Path(f"{theirs}.lock").exists()
    # an import into it is refused the same way, and the file is still there, as it was
    with pytest.raises(ServiceError, match="not a table file"):
        TableService.import_jsonl(theirs, _exported(tmp_path / "a.db", sim_log()[:20]))
    assert theirs.read_bytes() == kept


def test_a_table_file_of_another_version_is_refused_untouched(tmp_path: Path) -> None:
    import sqlite3

    from companion.game.service import ServiceError

    path = tmp_path / "t.db"
    TableService(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '9' WHERE key = 'db_version'")
    db.close()
    kept = path.read_bytes()
    with pytest.raises(ServiceError, match=r"another version of this program \(format 9, this one reads 1\)"):
        TableService(path)
    assert path.read_bytes() == kept


def test_a_refused_import_into_an_empty_table_file_leaves_the_file(tmp_path: Path) -> None:
    """Only a store the import made is removed when it is refused (a review's cleanup deleted a file it found)."""
    bad = _with_a_gap(_exported(tmp_path / "a.db", sim_log()))
    empty = tmp_path / "empty.db"
    TableService(empty).close()
    with pytest.raises(IllegalEvent) as info:
        TableService.import_jsonl(empty, bad)
    assert ("line", "151") in info.value.evidence  # the bad line named
    assert empty.exists()
    with TableService(empty) as again:  # and nothing of the log in it: not a game cut off at the bad line
        assert again.events() == []


def test_a_table_file_cut_short_while_it_was_set_up_opens(tmp_path: Path) -> None:
    """A crash between an earlier version's tables and its version row: ours, empty, and opened (a review found it
    refused for good as another program's)."""
    import sqlite3

    path = tmp_path / "t.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    db.close()
    with TableService(path) as service:
        assert isinstance(service.submit(sim_log()[0]), Accepted)


def test_events_submitted_together_are_stored_together_or_not_at_all(tmp_path: Path) -> None:
    log = sim_log()
    with TableService(tmp_path / "t.db") as service:
        heard: list[int] = []
        service.subscribe(lambda e, seq, state: heard.append(seq))
        r = service.submit_many(log[:10])
        assert isinstance(r, Accepted) and r.seq == 9 and heard == list(range(10))
        # the third refused (a repeat of an event already taken): none of the three stored
        refused = service.submit_many([log[10], log[11], log[5]])
        assert isinstance(refused, Refused) and len(service.events()) == 10 and heard == list(range(10))
        assert service.state == replay(log[:10])
    with TableService(tmp_path / "t.db") as again:
        assert again.events() == log[:10]


def test_a_link_to_an_open_table_file_is_refused_as_the_file_is(tmp_path: Path) -> None:
    """A review opened the same file through a symlink: a second writer, whose entries then failed."""
    from companion.game.service import ServiceError

    path = tmp_path / "t.db"
    link = tmp_path / "link.db"
    link.symlink_to(path)
    with TableService(path), pytest.raises(ServiceError, match="is open in another table service"):
        TableService(link)


def test_a_copy_of_the_table_file_alone_holds_every_finished_hand(tmp_path: Path) -> None:
    """A review copied the table file while the app ran (a backup): the copy opened as an empty game, every event
    still in the -wal beside it. Each hand's end is now checkpointed into the file itself."""
    import shutil

    from companion.game.state import Phase

    log = sim_log()
    ended = None
    with TableService(tmp_path / "t.db") as service:
        for i, e in enumerate(log):
            assert isinstance(service.submit(e), Accepted)
            if service.state.phase is Phase.HAND_OVER and ended is None:
                ended = i + 1
                shutil.copy(tmp_path / "t.db", tmp_path / "copy.db")  # the main file alone, no -wal
    assert ended is not None and ended < len(log)
    with TableService(tmp_path / "copy.db") as copy:
        assert copy.events() == log[:ended]


def test_a_second_name_of_an_open_table_file_is_refused(tmp_path: Path) -> None:
    """A review opened the same file through a hard link, in another process: its name's lock was free, its
    service saw an empty table, and its writes wiped the first one's acknowledged events. The file itself is
    locked now, so both there and in this process (where it said "disk I/O error") the second is refused."""
    from companion.game.service import ServiceError

    path = tmp_path / "t.db"
    log = sim_log()
    with TableService(path) as first:
        assert first.submit(log[0]).ok
        os.link(path, tmp_path / "other-name.db")
        with pytest.raises(ServiceError, match="under another name of the same file") as err:
            TableService(tmp_path / "other-name.db")
        assert "同一個檔案的另一個名稱" in str(err.value)
        code = ("import sys; from companion.game.service import TableService, ServiceError\n"
                "try:\n    TableService(sys.argv[1])\nexcept ServiceError as e:\n    print(e); sys.exit(3)\n")
        other = subprocess.run([sys.executable, "-c", code, str(tmp_path / "other-name.db")],
                               capture_output=True, text=True, timeout=120)
        assert other.returncode == 3 and "under another name of the same file" in other.stdout
        assert first.submit(log[1]).ok
    with TableService(tmp_path / "other-name.db") as again:  # closed: either name opens it, every event kept
        assert again.events() == log[:2]


def test_a_table_file_removed_while_open_is_written_again_and_one_replaced_is_refused(tmp_path: Path) -> None:
    """A review removed the table file while the app ran (to start over): every later tap was acknowledged, into a
    file no name reached, and the next start found none of them. Now the file is written again, whole, at the
    next tap, and the game goes on; a file put in its place is another's: the tap is refused, saying how to keep
    the game (the log is still in memory: Save log)."""
    from companion.game.service import ServiceError

    path = tmp_path / "t.db"
    log = sim_log()
    with TableService(path) as service:
        assert service.submit_many(log[:3]).ok
        service.set_private_hand(0, tuple(Tile.from_code(c) for c in ("1m", "2m")))
        for part in ("", "-wal", "-shm", ".lock"):
            Path(f"{path}{part}").unlink(missing_ok=True)
        assert service.submit(log[3]).ok and path.exists()
        with pytest.raises(ServiceError, match="is open in another table service"):  # the lock holds again
            TableService(path)
        assert service.submit(log[4]).ok
    with TableService(path) as again:
        assert again.events() == log[:5]
        path.unlink()
        path.write_bytes(b"")  # another file under the name
        with pytest.raises(ServiceError, match="replaced while the companion had it open") as err:
            again.submit(log[5])
        assert "另存在" in str(err.value) and again.events() == log[:5]


@pytest.mark.parametrize("taps", [9, 160])
def test_a_table_file_replaced_while_open_loses_neither_game(tmp_path: Path, taps: int) -> None:
    """A review renamed another game's table file over the one the app had open (a sync tool, a backup restored):
    the open connection's -wal beside it was read over the new file's pages ("malformed" from that moment on, the
    restart's and `companion replay`'s alike), or made a valid mixture that the restart opened as the old game and
    checkpointed over the new file for good. Now the file put there reads as itself from the moment it is there, the
    tap is refused naming where the open game was kept, and both games open again after the close."""
    from companion.game.service import ServiceError, read_log

    path = tmp_path / "table.sqlite"
    mine, theirs = sim_log(4, 3), sim_log(7, 2)
    other = tmp_path / "other-game.sqlite"
    with TableService(other) as service:
        for e in theirs:
            assert service.submit(e).ok
    service = TableService(path)
    for e in mine[:taps]:
        assert service.submit(e).ok
    incoming = tmp_path / "incoming"
    incoming.write_bytes(other.read_bytes())
    incoming.replace(path)
    assert [e for _, e in read_log(path)[0]] == theirs  # before the app has noticed
    with pytest.raises(ServiceError, match="replaced while the companion had it open") as err:
        service.submit(mine[taps])
    kept = tmp_path / "table.kept-1.sqlite"
    assert str(kept) in str(err.value) and "另存在" in str(err.value)
    assert err.value.phone == (
        "the table file table.sqlite was replaced while the companion had it open: nothing more is stored there (the "
        "file put there is left as it is); the game so far is kept as table.kept-1.sqlite, beside it; the host's "
        "terminal and log give the command to go on with it",
        "牌局檔 table.sqlite 在使用中被換掉了，之後的紀錄存不進去（換上的檔案沒有動）；這局到目前為止另存為 "
        "table.kept-1.sqlite，在牌局檔旁邊；主機的終端機和紀錄檔裡有接著記錄的指令")
    with pytest.raises(ServiceError, match="replaced"):  # and so every later write, the game still not lost
        service.submit(mine[taps])
    assert service.events() == mine[:taps]
    service.close()
    assert [e for _, e in read_log(path)[0]] == theirs
    with TableService(path) as again:
        assert again.events() == theirs
    with TableService(kept) as old:
        assert old.events() == mine[:taps]
        assert old.submit(mine[taps]).ok  # the game goes on from there


def test_a_table_file_that_cannot_be_looked_at_is_not_taken_for_a_replaced_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stat that fails (a network folder's hiccup) says so, sets nothing aside, and the next tap goes in."""
    from companion.game import service as svc
    from companion.game.service import ServiceError

    path = tmp_path / "table.sqlite"
    log = sim_log()
    real = os.stat

    def hiccup(p: object, *a: object, **k: object) -> os.stat_result:
        if str(p) == str(path):
            raise PermissionError(13, "Permission denied", str(p))
        return real(p, *a, **k)  # type: ignore[arg-type]

    with TableService(path) as service:
        assert service.submit_many(log[:3]).ok
        monkeypatch.setattr(svc.os, "stat", hiccup)
        with pytest.raises(ServiceError, match="cannot be looked at") as err:
            service.submit(log[3])
        assert "無法查看牌局檔" in str(err.value)
        monkeypatch.undo()
        assert service.submit(log[3]).ok
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.sqlite", "table.sqlite.lock"]


def test_a_table_file_replaced_and_the_app_closed_before_a_tap_keeps_the_open_game(tmp_path: Path) -> None:
    """Replaced with no tap after it: the close keeps the open game beside it (its file has no name left)."""
    from companion.game.service import read_log

    path = tmp_path / "table.sqlite"
    mine = sim_log(4, 1)
    with TableService(path) as service:
        assert service.submit_many(mine).ok
        path.unlink()
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE notes (body TEXT)")  # another program's file under the name
        db.close()
    assert [e for _, e in read_log(tmp_path / "table.kept-1.sqlite")[0]] == mine
    with sqlite3.connect(path) as db:
        assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["notes"]
    db.close()


def test_sqlites_own_words_are_said_in_chinese_too(tmp_path: Path) -> None:
    """A review read "database or disk is full" and "no such table: events" inside the Chinese half; a later one
    read SQLite's "no such table: events" in the English half, where the Chinese said what it means."""
    from companion.game.service import read_log, sqlite_zh

    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorname = "SQLITE_FULL"  # type: ignore[attr-defined]
    assert sqlite_zh(full) == "磁碟已滿"
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE users (name TEXT)")
    db.close()
    with pytest.raises(ev.EventError) as err:
        read_log(other)
    assert err.value.reason.en == ("the table file cannot be read: not a table file of this program (its tables are "
                                   "missing)")
    assert err.value.reason.zh == "牌局檔無法讀取：不是這個程式的牌局檔（缺少它的資料表）"


def test_a_table_file_on_a_read_only_medium_replays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A review's replay of a closed table in a read-only folder was refused ("unable to open database file"): a
    reader of a WAL file makes a -shm beside it. With no -wal there, everything is in the file: read as it is."""
    from companion.game import service as svc

    path = tmp_path / "t.db"
    log = sim_log()
    with TableService(path) as s:
        assert s.submit_many(log[:5]).ok
    assert not Path(f"{path}-wal").exists()
    real = svc._read_store
    tried: list[str] = []

    def read_only_folder(uri: str) -> object:  # what SQLite answers there to a reader that needs a -shm
        tried.append(uri)
        if "immutable=1" not in uri and "companion-read-" not in uri:  # (a copy in a folder that can be written)
            cannot = sqlite3.OperationalError("unable to open database file")
            cannot.sqlite_errorname = "SQLITE_CANTOPEN"  # type: ignore[attr-defined]
            raise cannot
        return real(uri)

    monkeypatch.setattr(svc, "_read_store", read_only_folder)
    events, _ = svc.read_log(path)
    assert [e for _, e in events] == log[:5] and len(tried) == 2
    # a -wal beside it (a copy made after a crash) holds events the main file has not: a review's replay was refused
    # ("unable to open database file"); they are read from a copy of the two made where a -shm can be
    live = sqlite3.connect(path, isolation_level=None)
    live.execute("PRAGMA wal_autocheckpoint=0")
    live.execute("INSERT INTO events (seq, body) VALUES (5, ?)", (json.dumps(ev.to_dict(log[5])),))
    medium = tmp_path / "medium"
    medium.mkdir()
    for part in ("", "-wal"):
        Path(f"{medium / 't.db'}{part}").write_bytes(Path(f"{path}{part}").read_bytes())
    live.close()
    tried.clear()
    events, _ = svc.read_log(medium / "t.db")
    assert [e for _, e in events] == log[:6] and "immutable=1" not in "".join(tried)
    assert sorted(p.name for p in medium.iterdir()) == ["t.db", "t.db-wal"]  # nothing made or changed there
    Path(f"{medium / 't.db'}-wal").write_bytes(b"not a wal")  # and what cannot be read so either is said as it was
    monkeypatch.setattr(svc, "_read_copy", lambda p: (_ for _ in ()).throw(sqlite3.DatabaseError("no")))
    with pytest.raises(ev.EventError, match="unable to open database file") as err:
        svc.read_log(medium / "t.db")
    assert "無法開啟檔案" in err.value.reason.zh


def test_a_table_file_removed_and_the_app_closed_before_a_tap_is_written_again(tmp_path: Path) -> None:
    """A change review: the table file removed while the app ran, then the app closed with no tap after it: the game
    was gone. The close writes it again, as a tap would have."""
    path = tmp_path / "table.sqlite"
    mine = sim_log(4, 1)
    with TableService(path) as service:
        assert service.submit_many(mine).ok
        for part in ("", "-wal", "-shm"):
            Path(f"{path}{part}").unlink(missing_ok=True)
    with TableService(path) as again:
        assert again.events() == mine


def test_a_tap_does_not_wait_on_another_program_reading_the_table_file(tmp_path: Path) -> None:
    """A change review: each write's checkpoint waited out the busy timeout (5 s a tap) while another program held a
    read open. The checkpoint now runs with no busy wait, the connection's own put back after it (read off the
    statements the writer runs); the frames it could not move go at a later write."""
    path = tmp_path / "table.sqlite"
    log = sim_log()
    ran: list[str] = []
    with TableService(path) as service:
        assert service.submit_many(log[:3]).ok

        def traced() -> None:
            assert service._db is not None
            service._db.execute("PRAGMA busy_timeout=2000")
            service._db.set_trace_callback(ran.append)

        service._call(traced)
        reader = sqlite3.connect(path)
        try:
            reader.execute("BEGIN")
            assert reader.execute("SELECT count(*) FROM events").fetchone()[0] >= 3  # a read held open
            assert service.submit(log[3]).ok
        finally:
            reader.rollback()
            reader.close()
        at = ran.index("PRAGMA wal_checkpoint(TRUNCATE)")
        assert ran[at - 1] == "PRAGMA busy_timeout=0" and ran[at + 1] == "PRAGMA busy_timeout=2000"
        assert service.submit(log[4]).ok
    with TableService(path) as again:
        assert again.events() == log[:5]


@pytest.mark.parametrize(("head", "kind"), [
    (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01", "JPEG"), (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "PNG"),
    (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00", "HEIC")])
def test_a_photo_given_for_a_log_is_said_to_be_one(tmp_path: Path, head: bytes, kind: str) -> None:
    """A newcomer gave the winning hand's photo as the log and was told "line 1: not UTF-8 text": it is said to be a
    photo, and what scores one; read as text or as bytes."""
    from companion.game.service import read_jsonl

    path = tmp_path / "hand.jpg"
    path.write_bytes(head + bytes(range(256)) * 4)
    for mode in ("rb", "r"):
        with open(path, mode) as f, pytest.raises(ev.EventError) as info:
            read_jsonl(f)
        assert f"this is a photo ({kind}), not a game log" in str(info.value.reason.en)
        assert f"這是一張照片（{kind}）" in info.value.reason.zh and "companion score" in info.value.reason.zh
    from companion.game.service import picture_kind  # a WebP whose size holds a newline; a video is no photo

    assert picture_kind(b"RIFF\x10\n") == "WebP" and picture_kind(b"\x00\x00\x00\x18ftypisom\x00\x00") is None
    path.write_bytes(b'{"type": "Seated"}\n\xff\xd8\xff\n')  # bytes on a later line: no photo, said as before
    with open(path, "rb") as f, pytest.raises(ev.EventError) as info:
        read_jsonl(f)
    assert "photo" not in info.value.reason.en


def test_a_log_whose_stamp_was_edited_is_refused_naming_its_line(tmp_path: Path) -> None:
    """A change review: a log written today, one line edited to seat two look-alike names and its stamp deleted,
    was imported, opened and replayed as kept before the stamp (leniently); a stamp from the future was taken with
    no word. The import, the app's Open log and replay each refuse it, naming the line, in both languages."""
    from companion.app.table_model import GameReplay, LogError

    log = sim_log()
    first = {**ev.to_dict(log[0]), **_LOOK_ALIKE}
    del first["rules_version"]
    future = {**ev.to_dict(log[3]), "rules_version": ev.RULES_VERSION + 1}
    for n, bad, said in ((1, first, "missing field rules_version"), (4, future, "newer version")):
        lines = [json.dumps(ev.to_dict(e)) for e in log[:10]]
        lines[n - 1] = json.dumps(bad)
        with pytest.raises(ev.EventError) as info:
            TableService.import_jsonl(tmp_path / f"edited{n}.db", lines)
        assert f"line {n}:" in info.value.reason.en and said in info.value.reason.en
        assert f"第 {n} 行" in info.value.reason.zh
        assert not (tmp_path / f"edited{n}.db").exists()
        path = tmp_path / f"edited{n}.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        with pytest.raises(LogError, match=f"line {n}: .*{said}"):
            GameReplay.from_file(str(path))
        code = subprocess.run([sys.executable, "-m", "companion", "replay", "--lang", "en", str(path)],
                              capture_output=True, text=True)
        assert code.returncode == 2 and f"line {n}: " in code.stderr and said in code.stderr, code.stderr


def test_a_table_file_that_is_a_looping_link_is_refused_by_name_and_one_made_so_while_open_keeps_its_game(
        tmp_path: Path) -> None:
    """A change review: a table file that is a link looping back on itself raised a bare RuntimeError ("Symlink
    loop") from the constructor, a traceback where the Live tab's Start was tapped; one made so while the table was
    open was said "cannot be looked at (Too many levels of symbolic links)", and the game, reached by no name any
    more, was lost when the app stopped. Both are said in the words of ``companion app``'s start (looping_table), and
    the open game is kept beside it as for a file replaced."""
    from companion.game.service import looping_table, read_log

    path = tmp_path / "table.sqlite"
    path.symlink_to(path.name)
    said = (f"{path} is a link that loops back on itself, not a table file", f"{path} 是繞回自己的符號連結，不是牌局檔")
    assert looping_table(path) == said and looping_table(tmp_path / "none.sqlite") is None
    with pytest.raises(ServiceError) as err:
        TableService(path)
    assert str(err.value) == f"{said[0]} / {said[1]}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.sqlite"]  # (no lock file left)
    path.unlink()
    mine = sim_log()
    service = TableService(path)
    for e in mine[:5]:
        assert service.submit(e).ok
    path.unlink()
    path.symlink_to(path.name)
    for _ in range(2):  # every later write too, the game still in memory
        with pytest.raises(ServiceError) as err:
            service.submit(mine[5])
        kept = tmp_path / "table.kept-1.sqlite"
        assert said[0] in str(err.value) and said[1] in str(err.value) and str(kept) in str(err.value), err.value
        assert err.value.phone is not None and all(str(tmp_path) not in w for w in err.value.phone), err.value.phone
        assert err.value.phone[0].startswith("table.sqlite is a link that loops back on itself") and \
            f"kept as table.kept-1.sqlite, beside it; {HOST_SAYS_HOW[0]}" in err.value.phone[0], err.value.phone
        assert service.events() == mine[:5]
    service.close()
    assert [e for _, e in read_log(kept)[0]] == mine[:5] and path.is_symlink()


@pytest.mark.parametrize("gone", ["moved", "removed"])
@pytest.mark.parametrize("put", ["file", "nowhere", "loop"])
def test_a_table_files_folder_made_no_folder_while_open_is_named_and_the_game_kept_where_it_can_be(
        tmp_path: Path, put: str, gone: str, caplog: pytest.LogCaptureFixture) -> None:
    """A change review: the table's folder moved away (or removed) while open and a file, a link to nothing or a link
    that loops put in its place was said "cannot be looked at (Not a directory)", or "cannot be written again (unable
    to open database file)"; then named as the start names it (in_the_way_said), but the game was in memory alone,
    lost when the host stopped the app before a phone saved the log, and "written again from the open one" was logged
    at every tap where nothing was written. Now the game is kept in the nearest folder that can take it (here the one
    above the data folder), named in both languages by the refusal and on stderr once; no more is logged at close."""
    import logging
    import shutil

    from companion.files import in_the_way_said
    from companion.game.service import read_log

    folder = tmp_path / "data"
    folder.mkdir()
    mine = sim_log()
    service = TableService(folder / "table.sqlite")
    for e in mine[:5]:
        assert service.submit(e).ok
    if gone == "moved":
        folder.rename(tmp_path / "moved")
    else:
        shutil.rmtree(folder)
    if put == "file":
        folder.write_text("x")
    else:
        folder.symlink_to(tmp_path / "not-there" if put == "nowhere" else folder.name)
    en, zh = in_the_way_said(folder)
    kept = tmp_path / "companion-table.kept-1.sqlite"  # (outside the table's own folder: named for the app)
    caplog.set_level(logging.WARNING, logger="companion.game.service")
    for _ in range(2):  # every later write says the same, nothing more kept
        with pytest.raises(ServiceError) as err:
            service.submit(mine[5])
        said = str(err.value)  # the host's words: full paths, and how to go on
        assert en in said and zh in said and f"kept in {kept}" in said and f"另存在 {kept}" in said, said
        assert f"the host can restart the app with --table {kept} to go on" in said, said
        assert "Errno" not in said and "unable to open" not in said, said
        # a phone's: by name (two full paths and "(open it with --table)" filled a phone: a change review)
        assert err.value.phone is not None
        p_en, p_zh = err.value.phone
        assert p_en.startswith("data is a "), p_en  # (where a link leads: a host path, the host's alone, a third
        assert all(str(tmp_path) not in w for w in err.value.phone), p_en  # review)
        assert ") (" not in p_en and "）（" not in p_zh, err.value.phone  # (one parenthesis, not two side by side)
        assert ("the game so far is kept as companion-table.kept-1.sqlite, in the folder "
                f"{tmp_path.name} above data; {HOST_SAYS_HOW[0]}") in p_en, p_en
        assert f"另存為 companion-table.kept-1.sqlite，在 data 上層的資料夾 {tmp_path.name}；{HOST_SAYS_HOW[1]}" in p_zh, p_zh
        assert "--table" not in p_en + p_zh, err.value.phone  # (a bare name from another folder: a new game)
        assert service.events() == mine[:5]
    out = io.StringIO()
    assert service.export_jsonl(out) == 5  # Save log still has the whole game
    service.close()
    assert [e for _, e in read_log(kept)[0]] == mine[:5]
    assert not (tmp_path / "not-there").exists()  # no folder made through the link
    logged = [r.getMessage() for r in caplog.records]
    assert len(logged) == 1 and f"kept in {kept}" in logged[0] and f"另存在 {kept}" in logged[0], logged
    assert not any("written again" in m for m in logged), logged


def test_a_table_files_folder_made_no_folder_then_the_app_closed_keeps_the_game_and_says_where(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A change review: the data folder removed and a file put there while open, then the app stopped before any
    tap: the game, in memory alone, was gone and the close said nothing. It is kept at the close, in the nearest
    folder that can take it, and said where on stderr (the log's warning) in both languages."""
    import logging
    import shutil

    from companion.game.service import read_log

    folder = tmp_path / "data"
    folder.mkdir()
    mine = sim_log()
    service = TableService(folder / "table.sqlite")
    for e in mine[:5]:
        assert service.submit(e).ok
    shutil.rmtree(folder)
    folder.write_text("x")
    caplog.set_level(logging.WARNING, logger="companion.game.service")
    service.close()
    kept = tmp_path / "companion-table.kept-1.sqlite"
    assert [e for _, e in read_log(kept)[0]] == mine[:5] and folder.read_text() == "x"
    logged = [r.getMessage() for r in caplog.records]
    assert len(logged) == 1 and f"{folder} is a file, not a folder" in logged[0], logged
    assert f"kept in {kept}" in logged[0] and f"另存在 {kept}" in logged[0] and f"{folder} 是檔案" in logged[0], logged


@pytest.mark.parametrize("fallback", ["home", "here"])
def test_a_game_kept_where_no_folder_above_takes_it_goes_to_the_home_or_current_folder_named_for_the_app(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fallback: str) -> None:
    """A change review: a game set aside outside the table's own folder was kept as ``table.kept-1.sqlite`` in a
    shared folder (``~/.local/share``), a name that says nothing of whose it is, and nothing pointed back to it. Kept
    outside its own folder it is ``companion-table.kept-N.sqlite``; where no folder above takes it, in the home folder,
    else the current one, each said by name on a phone; :func:`kept_copies` finds it there."""
    import shutil

    from companion.game import service as svc
    from companion.game.service import kept_copies, read_log

    home, here, top = tmp_path / "home", tmp_path / "here", tmp_path / "top"
    for folder in (home, here, top):
        folder.mkdir()
    monkeypatch.setenv("HOME", str(home) if fallback == "home" else str(tmp_path / "no-home"))
    monkeypatch.chdir(here)
    real_access = os.access
    monkeypatch.setattr(svc.os, "access", lambda p, mode: False if Path(p) in (top, *top.parents)
                        else real_access(p, mode))  # (root writes anywhere: no folder above takes it)
    data = top / "data"
    data.mkdir()
    table = data / "table.sqlite"
    mine = sim_log()
    service = TableService(table)
    for e in mine[:3]:
        assert service.submit(e).ok
    shutil.rmtree(data)
    data.write_text("x")
    with pytest.raises(ServiceError) as err:
        service.submit(mine[3])
    service.close()
    kept = (home if fallback == "home" else here) / "companion-table.kept-1.sqlite"
    assert [e for _, e in read_log(kept)[0]] == mine[:3]
    where = ("in the host's home folder", "在主機的家目錄") if fallback == "home" else \
        ("in the folder the app was started from", "在 companion app 啟動時所在的資料夾")
    assert err.value.phone is not None
    assert f"kept as companion-table.kept-1.sqlite, {where[0]}" in err.value.phone[0], err.value.phone
    assert f"另存為 companion-table.kept-1.sqlite，{where[1]}" in err.value.phone[1], err.value.phone
    assert f"kept in {kept}" in str(err.value)
    data.unlink()
    data.mkdir()
    assert kept_copies(table) == [kept]


def test_a_table_file_not_looked_at_when_the_service_closes_is_kept_saying_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A change review: a table file that could not be looked at when the service closed (a permission changed) was
    kept, and the log said it "could not be written again", which is not what happened. It says what did: it could
    not be looked at, and why, and where the game is kept; a phone tapping before then is told by name."""
    import logging

    from companion.game import service as svc
    from companion.game.service import read_log

    path = tmp_path / "table.sqlite"
    mine = sim_log()
    service = TableService(path)
    for e in mine[:3]:
        assert service.submit(e).ok
    real_stat = os.stat

    def stat(p: Any, *a: Any, **k: Any) -> os.stat_result:
        if str(p) == str(path):
            raise PermissionError(13, "Permission denied", str(p))
        return real_stat(p, *a, **k)

    monkeypatch.setattr(svc.os, "stat", stat)
    with pytest.raises(ServiceError) as err:
        service.submit(mine[3])
    assert err.value.phone == ("the table file table.sqlite cannot be looked at (Permission denied)",
                               "無法查看牌局檔 table.sqlite（沒有權限）"), err.value.phone
    caplog.set_level(logging.WARNING, logger="companion.game.service")
    service.close()
    monkeypatch.undo()
    kept = tmp_path / "table.kept-1.sqlite"
    assert [e for _, e in read_log(kept)[0]] == mine[:3]
    logged = [r.getMessage() for r in caplog.records]
    assert len(logged) == 1 and "written again" not in logged[0], logged
    assert f"{path}: the table file could not be looked at when the companion closed (Permission denied); the game " \
        f"so far is kept in {kept}" in logged[0], logged
    assert "companion 關閉時無法查看牌局檔（沒有權限）" in logged[0], logged
    phone = service._replaced.phone if service._replaced is not None else None  # (a phone's words by name, never the
    assert phone == (  # host's: a third review)
        "the table file table.sqlite could not be checked when the companion closed; the game so far is kept as "
        f"table.kept-1.sqlite, beside it; {HOST_SAYS_HOW[0]}",
        f"companion 關閉時無法檢查牌局檔 table.sqlite；這局到目前為止另存為 table.kept-1.sqlite，在牌局檔旁邊；{HOST_SAYS_HOW[1]}"), phone


def test_a_table_file_made_a_link_to_nothing_while_open_is_said_so_and_the_game_kept(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A third review: a table file made a link to nothing there while open was said "removed while the companion had
    it open", and at close "(unable to open database file)" in the Chinese too. It is said to be a link to nothing
    (where it leads: the host's words alone), and the game is kept beside it."""
    import logging

    from companion.game.service import read_log

    path = tmp_path / "table.sqlite"
    mine = sim_log()
    service = TableService(path)
    for e in mine[:3]:
        assert service.submit(e).ok
    path.unlink()
    path.symlink_to(tmp_path / "nowhere" / "t.sqlite")
    caplog.set_level(logging.WARNING, logger="companion.game.service")
    with pytest.raises(ServiceError) as err:
        service.submit(mine[3])
    assert err.value.phone is not None
    p_en, p_zh = err.value.phone
    assert p_en.startswith("table.sqlite is a link to a place that is not there (a drive not plugged in?), not a "
                           "table file; it was put there while the companion had the table open"), p_en
    assert p_zh.startswith("table.sqlite 是符號連結，指向的地方不存在（磁碟沒接上？），不是牌局檔（牌局使用中被換上的）"), p_zh
    assert "removed" not in p_en and str(tmp_path) not in p_en + p_zh, err.value.phone
    assert f"is a link to {tmp_path / 'nowhere' / 't.sqlite'}, which is not there" in str(err.value)
    service.close()
    kept = tmp_path / "table.kept-1.sqlite"
    assert [e for _, e in read_log(kept)[0]] == mine[:3]
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "removed" not in logged and "unable to open" not in logged, logged


def test_a_game_that_cannot_be_kept_anywhere_is_said_on_a_phone_in_its_language_without_a_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A third review: a game that could be kept nowhere put the Chinese reason in the English phone words too (and
    the host's Chinese half had the English one). Each language says its own reason; a phone's names no path."""
    import re

    path = tmp_path / "table.sqlite"
    mine = sim_log()
    service = TableService(path)
    for e in mine[:3]:
        assert service.submit(e).ok

    def nowhere() -> tuple[Path, str]:
        raise PermissionError(13, "Permission denied", str(tmp_path / "table.kept-1.sqlite"))

    monkeypatch.setattr(service, "_keep_path", nowhere)
    path.unlink()
    path.write_bytes(b"another program's file")
    with pytest.raises(ServiceError) as err:
        service.submit(mine[3])
    assert err.value.phone is not None
    p_en, p_zh = err.value.phone
    assert "the game could not be kept elsewhere (Permission denied); save the log" in p_en, p_en
    assert not re.search(r"[\u2e80-\u9fff\uff00-\uffef]", p_en) and str(tmp_path) not in p_en + p_zh, err.value.phone
    assert "這局也無法另存（沒有權限）" in p_zh, p_zh
    assert "這局也無法另存（沒有權限）" in str(err.value), str(err.value)
    service.close()


def test_a_table_file_that_is_a_link_to_nothing_is_named_with_where_it_leads(tmp_path: Path) -> None:
    """A change review: a table file that is a link to nothing there (``d/table.sqlite -> /nowhere/t.sqlite``) was
    said "cannot open its lock file (No such file or directory)", with its full path on a phone. It is named as a
    link that loops is, with where it leads: in full for the host, by name for a phone."""
    from companion.game.service import dangling_table

    path = tmp_path / "table.sqlite"
    path.symlink_to(tmp_path / "nowhere" / "t.sqlite")
    to = tmp_path / "nowhere" / "t.sqlite"
    with pytest.raises(ServiceError) as err:
        TableService(path)
    assert str(err.value) == (f"{path} is a link to {to}, which is not there: it is not a table file / "
                              f"{path} 是符號連結，指向的 {to} 不存在，不是牌局檔")
    assert err.value.phone == dangling_table(path, by_name=True) and err.value.phone is not None
    assert err.value.phone == ("table.sqlite is a link to a place that is not there (a drive not plugged in?), not a "
                               "table file", "table.sqlite 是符號連結，指向的地方不存在（磁碟沒接上？），不是牌局檔")
    assert str(tmp_path) not in "".join(err.value.phone)  # (a host path on a phone: a third review)
    assert dangling_table(tmp_path / "none.sqlite") is None and not (tmp_path / "nowhere").exists()


def test_a_data_folder_linked_to_a_drive_from_the_start_and_unplugged_is_not_said_put_there(tmp_path: Path) -> None:
    """A fourth review: the data folder a link to a drive's folder from the start, the drive unplugged mid-game: the
    phone said the link was "put there while the companion had the table open" (nothing was put there), in a second
    parenthesis beside "(a drive not plugged in?)"; and it gave ``--table table.kept-1.sqlite``, which from another
    folder starts a new game. Now said as it is, the game kept, and the command left to the host's words."""
    from companion.game.service import kept_copies, read_log

    (tmp_path / "drive" / "data").mkdir(parents=True)
    (tmp_path / "share").mkdir()
    data = tmp_path / "share" / "data"
    data.symlink_to(tmp_path / "drive" / "data")
    mine = sim_log()
    service = TableService(data / "table.sqlite")
    for e in mine[:3]:
        assert service.submit(e).ok
    (tmp_path / "drive").rename(tmp_path / "unplugged")
    with pytest.raises(ServiceError) as err:
        service.submit(mine[3])
    assert err.value.phone is not None
    p_en, p_zh = err.value.phone
    assert p_en.startswith("data is a link to a place that is not there (a drive not plugged in?), not a folder: "
                           "nothing more is stored there; the game so far is kept as companion-table.kept-1.sqlite, "
                           f"in the folder share above data; {HOST_SAYS_HOW[0]}"), p_en
    assert p_zh.startswith("data 是符號連結，指向的地方不存在（磁碟沒接上？），不是資料夾，之後的紀錄存不進去；"), p_zh
    assert "put there" not in p_en and "換上" not in p_zh and str(tmp_path) not in p_en + p_zh, err.value.phone
    kept = tmp_path / "share" / "companion-table.kept-1.sqlite"
    assert f"--table {kept}" in str(err.value)  # (the host's words: the full path, a command that works)
    service.close()
    assert [e for _, e in read_log(kept)[0]] == mine[:3]
    assert kept_copies(data / "table.sqlite") == [kept]


def test_kept_copies_are_listed_only_for_the_table_they_were_kept_from(tmp_path: Path) -> None:
    """A fourth review: every table is ``table.sqlite``, and another data folder's kept copy, found in a folder above
    both, was listed at this table's start. A copy says which table it was kept from; one beside the table is its own
    by its name (an older copy, kept before they said so, too)."""
    from companion.game.service import kept_copies

    share = tmp_path / "share"
    data = share / "data"
    data.mkdir(parents=True)
    mine = sim_log()
    service = TableService(data / "table.sqlite")
    for e in mine[:3]:
        assert service.submit(e).ok
    data.rename(share / "moved")
    data.write_text("x")
    with pytest.raises(ServiceError) as err:
        service.submit(mine[3])
    service.close()
    assert err.value.phone is not None  # (plain Chinese, no 「；…：」: a final review)
    assert err.value.phone[1].startswith("data 是檔案，不是資料夾（牌局使用中被換上的），之後的紀錄存不進去；"), err.value.phone
    kept = share / "companion-table.kept-1.sqlite"
    with sqlite3.connect(kept) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'kept_from'").fetchone() == (str(data / "table.sqlite"),)
    other = share / "other" / "table.sqlite"
    other.parent.mkdir()
    assert kept_copies(other) == []  # (it was [kept])
    assert kept_copies(data / "table.sqlite") == [kept]
    beside = other.parent / "table.kept-1.sqlite"  # an older copy beside it: no word of whose, its own by name
    beside.write_bytes(kept.read_bytes())
    with sqlite3.connect(beside) as db:
        db.execute("DELETE FROM meta WHERE key = 'kept_from'")
    assert kept_copies(other) == [beside]


def test_a_game_with_no_free_name_to_keep_it_says_why_on_a_phone_without_a_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fourth review (from reading): an error without an errno ("no free name beside /…/table.sqlite") put its
    text, a host path, in the phone's words, and in the Chinese fallback too. The phone's reason comes from its kind."""
    from companion.game import service as service_module

    path = tmp_path / "table.sqlite"
    mine = sim_log()
    service = TableService(path)
    for e in mine[:3]:
        assert service.submit(e).ok

    def no_name(self: TableService) -> tuple[Path, str]:
        raise service_module.NoFreeName(f"no free name beside {self.path}")

    monkeypatch.setattr(service_module.TableService, "_keep_path", no_name)
    path.unlink()
    path.write_bytes(b"")
    with pytest.raises(ServiceError) as err:
        service.submit(mine[3])
    assert err.value.phone is not None
    p_en, p_zh = err.value.phone
    assert "the game could not be kept elsewhere (no free name for a copy)" in p_en, p_en
    assert "這局也無法另存（找不到可用的檔名）" in p_zh, p_zh
    assert str(tmp_path) not in p_en + p_zh, err.value.phone
    assert f"no free name beside {path}" in str(err.value)  # (the host's words say it in full)
    service.close()


def test_an_error_without_an_errno_is_said_to_a_phone_as_a_refusal_not_as_no_free_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A final review: any OSError without an errno was said on a phone as "no free name for a copy"; only
    :class:`NoFreeName` says that, any other one "the system refused", still without its text (a path)."""
    from companion.game import service as service_module

    path = tmp_path / "table.sqlite"
    mine = sim_log()
    service = TableService(path)
    for e in mine[:3]:
        assert service.submit(e).ok

    def refused(self: TableService) -> tuple[Path, str]:
        raise OSError(f"something odd at {self.path}")

    monkeypatch.setattr(service_module.TableService, "_keep_path", refused)
    path.unlink()
    path.write_bytes(b"")
    with pytest.raises(ServiceError) as err:
        service.submit(mine[3])
    assert err.value.phone is not None
    p_en, p_zh = err.value.phone
    assert "the game could not be kept elsewhere (the system refused)" in p_en, p_en
    assert "這局也無法另存（系統拒絕）" in p_zh, p_zh
    assert "no free name" not in p_en and "找不到可用的檔名" not in p_zh, err.value.phone
    assert str(tmp_path) not in p_en + p_zh, err.value.phone
    service.close()


def test_a_copy_above_without_kept_from_is_skipped_quietly(tmp_path: Path) -> None:
    """A final review: a copy kept into a folder above by a build that never said whose it was (no ``kept_from``)
    cannot be told from another table's: it is not listed, and nothing fails on it."""
    from companion.game.service import kept_copies

    data = tmp_path / "share" / "data"
    data.mkdir(parents=True)
    source = tmp_path / "source.sqlite"
    service = TableService(source)
    for e in sim_log()[:3]:
        assert service.submit(e).ok
    service.close()
    above = tmp_path / "share" / "companion-table.kept-1.sqlite"
    above.write_bytes(source.read_bytes())
    with sqlite3.connect(above) as db:
        db.execute("DELETE FROM meta WHERE key = 'kept_from'")
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 3
    assert kept_copies(data / "table.sqlite") == []


@pytest.mark.parametrize(("code", "zh"), [(errno.EIO, "讀寫裝置出錯"), (errno.EPROTO, "系統錯誤，代碼 EPROTO"), (4242, "系統錯誤，代碼 4242")])
def test_a_game_kept_nowhere_for_an_error_without_chinese_words_names_it_in_chinese(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, zh: str) -> None:
    """A review: an OS error the Chinese words had no entry for was said in Chinese as "系統錯誤：" and the system's
    English, "這局也無法另存（系統錯誤：Input/output error）" on the host and on a phone. It is named in Chinese by its
    errno name (EIO), else by its number, the English keeping the system's words."""
    path = tmp_path / "table.sqlite"
    mine = sim_log()
    service = TableService(path)
    for e in mine[:3]:
        assert service.submit(e).ok
    english = os.strerror(code)

    def nowhere() -> tuple[Path, str]:
        raise OSError(code, english, str(tmp_path / "table.kept-1.sqlite"))

    monkeypatch.setattr(service, "_keep_path", nowhere)
    path.unlink()
    path.write_bytes(b"another program's file")
    with pytest.raises(ServiceError) as err:
        service.submit(mine[3])
    assert err.value.phone is not None
    p_en, p_zh = err.value.phone
    host_zh = str(err.value).rpartition(" / ")[2]
    assert f"這局也無法另存（{zh}）" in p_zh and f"這局也無法另存（{zh}）" in host_zh, (p_zh, host_zh)
    assert f"the game could not be kept elsewhere ({english})" in p_en, p_en
    assert english not in p_zh + host_zh and "Input" not in p_zh + host_zh, (p_zh, host_zh)  # (no English)
    service.close()


def test_a_bad_private_header_is_said_as_its_line_wrote_it(tmp_path: Path) -> None:
    """An export header's private hands that are no map were said as Python spells them: ['2', True]."""
    lines = [json.dumps(ev.to_dict(e)) for e in sim_log()[:5]]
    header = {"schema": "companion.table", "events": len(lines), "private": ["2", True]}
    with pytest.raises(ev.EventError) as info:
        TableService.import_jsonl(tmp_path / "h.db", [json.dumps(header)] + lines)
    for text in (info.value.reason.zh, info.value.reason.en):
        assert '["2", true]' in text and "True" not in text and "'" not in text, text
