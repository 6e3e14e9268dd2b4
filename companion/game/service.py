"""The table service: one per table, the only writer of its event log.

A single writer thread owns the SQLite connection (stdlib ``sqlite3``, WAL journal, ``synchronous=FULL``).
``submit`` hands the event to that thread, which checks it, commits it and only then acknowledges it,
so a process killed at any moment loses no acknowledged event, and reopening resumes exactly.
The camera loop and every app session go through ``submit``; views ``subscribe``; what the camera
cannot decide becomes a question (``ask``) that a person ``answer``s.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import io
import itertools
import json
import logging
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from queue import Queue
from typing import IO, Any, TypeVar

from companion.files import (
    NotAFolderError,
    file_in_the_way,
    in_the_way_said,
    json_error_said,
    loads_json,
    make_folder,
)
from companion.game import events as ev
from companion.game.check import step
from companion.game.older_rules import OlderRules
from companion.game.state import TableState
from companion.game.text import IllegalEvent, Msg, msg
from companion.rules.profiles import os_error_zh
from companion.rules.said import json_said
from companion.tiles import Tile, format_tiles, parse_tiles

__all__ = ["Accepted", "Refused", "Question", "Choice", "TableService", "ServiceError", "TableInUse", "ServiceTimeout",
           "EXPORT_SCHEMA", "read_jsonl", "read_log", "read_log_or_table", "SQLITE_MAGIC", "Subscribers",
           "looping_table"]

log = logging.getLogger(__name__)
EXPORT_SCHEMA = "companion.table"
_DB_VERSION = "1"
_OURS = frozenset({"meta", "events", "private", "questions"})


class ServiceError(RuntimeError):
    """The service is closed, or its database cannot be used. Its text (``English / 中文``) is the host's, naming files
    by their full paths; ``phone`` (English, Chinese), where given, says it by name, for a phone (two full paths of
    the host's and a command-line hint filled a phone's refusal: a change review). ``what`` (English, Chinese, the
    host's words): what happened, without what to do, where that is said otherwise at close."""

    def __init__(self, text: str, phone: tuple[str, str] | None = None, what: tuple[str, str] | None = None,
                 damaged: bool = False) -> None:
        super().__init__(text)
        self.phone = phone
        self.what = what
        self.damaged = damaged
        """The table file is damaged (:func:`sqlite_damaged`): a refusal says how to go on without it."""


class TableInUse(ServiceError):
    """The table file is open in another table service (another companion): a moment's state, not the file's."""


IN_USE_PHONE = ("another companion window or command has it open (close it there, then try again)",
                "另一個小幫手視窗或指令正開著它（先在那裡關掉，再試一次）")
"""A phone's words for :class:`TableInUse`, after the table file's name: what holds it and what to do, the same in
both languages, with no path of the host's and no "table service" (a review's phone read the file's full path)."""


class ServiceTimeout(ServiceError, TimeoutError):
    """The writer did not get to a call in time (a stalled medium's write ahead of it): withdrawn, never done later."""


class NoFreeName(OSError):
    """No free name for a kept copy in any folder tried (:meth:`TableService._keep_path`): its own kind, since any
    other error without an errno was said to a phone as this one (a final review)."""


@dataclass(frozen=True, slots=True)
class Accepted:
    seq: int
    state: TableState

    @property
    def ok(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Refused:
    reason: Msg
    evidence: tuple[tuple[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Choice:
    label: Msg
    event: ev.Event | None = None  # what answering with this choice submits


@dataclass(frozen=True, slots=True)
class Question:
    prompt: Msg
    choices: tuple[Choice, ...]
    evidence: tuple[tuple[str, str], ...] = ()


Listener = Callable[[ev.Event, int, TableState], None]


class Subscribers:
    """Listeners told of changes: added and removed from any thread, each told in turn; one that fails is logged
    and the others are still told (a view's failure never stops the table)."""

    def __init__(self, what: str) -> None:
        self._what = what
        self._lock = threading.Lock()
        self._items: list[Callable[..., None]] = []

    def add(self, listener: Callable[..., None]) -> Callable[[], None]:
        """Add ``listener``; returns the call that removes it."""
        with self._lock:
            self._items.append(listener)

        def remove() -> None:
            with self._lock:
                if listener in self._items:
                    self._items.remove(listener)

        return remove

    def tell(self, *args: Any) -> None:
        with self._lock:
            items = list(self._items)
        for listener in items:
            try:
                listener(*args)
            except Exception:
                log.exception("%s listener failed", self._what)


Write = Callable[[sqlite3.Connection], None]
T = TypeVar("T")


class TableService:
    """Open (or create) the table database at ``path`` and replay its log."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._jobs: Queue[tuple[Callable[[], Any], Future[Any]] | None] = Queue()
        self._listeners = Subscribers("table")
        self._events: list[ev.Event] = []
        self._state = TableState()
        # the stored events let in under the older rules of their stamp, by their stored number: noted as the file is
        # replayed at open, or as a log is imported (every event entered here since is stamped with today's rules)
        self._older = OlderRules(stored=True)
        self._private: dict[int, tuple[int | None, tuple[Tile, ...]]] = {}  # seat -> (the deal, its tiles)
        self._questions: dict[int, tuple[Question, int | None]] = {}
        self._db: sqlite3.Connection | None = None
        self._lock_file: IO[str] | None = None
        self._file_lock: int | None = None  # a descriptor of the table file itself, locked (its other names too)
        self._identity: tuple[int, int] | None = None  # the open file's device and inode
        # the links on the way to the table (its file, its folders) when it was opened: one there since is not said to
        # have been "put there" while it was open (a drive unplugged mid-game: a fourth review)
        self._links_at_open = {p for p in (self.path, *self.path.parents) if os.path.islink(p)}
        self._beside: dict[str, tuple[int, int]] = {}  # the open connection's -wal and -shm: their device and inode
        self._replaced: ServiceError | None = None  # said of every write once the file was found replaced
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=f"table-writer:{self.path.name}", daemon=True)
        self._thread.start()
        lock_made = not self._lock_path.exists()
        try:
            self._call(self._open)
        except BaseException:
            self.close()
            if lock_made:  # a file refused (another program's, another version's) is left as it was found
                with contextlib.suppress(OSError):  # (a read-only folder: its own error is the one to say)
                    self._lock_path.unlink(missing_ok=True)
            raise

    # --- public API -------------------------------------------------------------------------------

    @property
    def state(self) -> TableState:
        return self._state

    def events(self) -> list[ev.Event]:
        return list(self._events)

    def older_rules(self) -> Msg | None:
        """What ``companion replay`` says of the stored events that today's rules refuse, let in under the older
        rules of their stamp (a log saved by an earlier version, imported; a table file an earlier version kept): how
        many, and the first by its stored number; None where there is none. Noted as the events were replayed when
        the file was opened (or imported), at no cost: the Live tab replayed the whole log again for it, 0.83 s of a
        6,317-event log at its first render, holding the game (a change review)."""
        return self._older.said()

    def submit(self, event: ev.Event, timeout: float | None = 30.0) -> Accepted | Refused:
        """Check, commit, then acknowledge; ``Refused`` carries the reason (zh/en) and the evidence."""
        result: Accepted | Refused = self._call(lambda: self._submit(event), timeout)
        return result

    def submit_many(self, events: Sequence[ev.Event], timeout: float | None = 30.0) -> Accepted | Refused:
        """Events that stand or fall together (a player's one tap: the draw and the discard, the dice and the
        deal, a kong and its replacement, an undo's retractions): each checked after the ones before it, then all
        committed in one transaction, so that a crash or a full disk keeps all of them or none. ``Refused``: the
        first one refused (its place in ``events`` as the evidence ``at``), and nothing stored; ``Accepted``: the last
        one's number and the table after it."""
        batch = tuple(events)  # taken on the caller's thread: a list the caller changes later is not read then
        result: Accepted | Refused = self._call(lambda: self._submit_many(batch), timeout)
        return result

    def start_session(self, players: tuple[str, ...], profile: str = "atawmj_2009", base: int = 30,
                      per_tai: int = 10, source: ev.EventSource = ev.EventSource.MANUAL) -> Accepted | Refused:
        """Seat four named players under a rule profile (its procedure switches) at 底/台 stakes. (Only tests call it
        today: kept as the seating the camera loop will ask the table service for, as the roadmap plans.)"""
        from companion.game.session import switches_for
        from companion.rules.profiles import ProfileError, load_profile
        from companion.rules.profiles._store import rules_text

        try:
            switches = switches_for(profile)
            chosen = load_profile(profile)
        except ProfileError as bad:
            return Refused(msg("profile", name=profile, why=bad.zh, why_en=str(bad)), (("profile", profile),))
        # the rule set's values kept in the log, as the Live tab's seating keeps them
        return self.submit(ev.Seated(players=tuple(players), switches=switches, base=base, per_tai=per_tai,
                                     profile=chosen.id, rules=rules_text(chosen), source=source))

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """``listener(event, seq, state)`` after each accepted event (called on the writer thread)."""
        return self._listeners.add(listener)

    def ask(self, question: Question) -> int:
        """Store a question for the players; returns its id."""
        qid: int = self._call(lambda: self._ask(question))
        return qid

    def open_questions(self) -> dict[int, Question]:
        """The questions not answered yet. (Only tests call it today: kept for the camera loop, whose questions
        with evidence crops the players answer through the table service, as the roadmap plans.)"""
        return {q: v[0] for q, v in self._questions.items() if v[1] is None}

    def answer(self, question_id: int, choice: int) -> Accepted | Refused | None:
        """Answer a question; a choice that carries an event submits it."""
        result: Accepted | Refused | None = self._call(lambda: self._answer(question_id, choice))
        return result

    def set_private_hand(self, seat: int, tiles: Iterable[Tile] | str) -> None:
        """A seat's known concealed hand: kept outside the shared log; during a hand the log records
        only that the seat's hand is known (:class:`~companion.game.events.HandKnown`)."""
        ts = parse_tiles(tiles) if isinstance(tiles, str) else tuple(tiles)
        self._call(lambda: self._set_private(seat, ts))

    def private_hand(self, seat: int) -> tuple[Tile, ...] | None:
        kept = self._private.get(seat)
        return kept[1] if kept is not None and _current(self._state, seat, kept[0]) else None

    def _private_hands(self) -> dict[int, tuple[Tile, ...]]:
        return {s: t for s in range(4) if (t := self.private_hand(s)) is not None}

    def export_jsonl(self, out: IO[str], include_private: bool = False) -> int:
        """Write the session as JSON lines (a header, then one event per line); returns the event count."""
        header: dict[str, Any] = {"schema": EXPORT_SCHEMA, "v": ev.SCHEMA_VERSION, "events": len(self._events)}
        if include_private:
            header["private"] = {str(s): format_tiles(t) for s, t in sorted(self._private_hands().items())}
        out.write(json.dumps(header, ensure_ascii=False) + "\n")
        for e in list(self._events):
            out.write(json.dumps(ev.to_dict(e), ensure_ascii=False) + "\n")
        return len(self._events)

    @classmethod
    def import_jsonl(cls, path: str | Path, lines: Iterable[str | bytes], older: OlderRules | None = None) -> TableService:
        """A new table database at ``path`` holding an exported session; refuses an illegal log,
        naming the line. ``older`` notes the events let in under the older rules of their stamp, by their line
        (:meth:`OlderRules.said` says them): the import says them as ``companion replay`` does."""
        events, private = read_jsonl(lines)
        made = not Path(path).exists()  # a refused import removes only a store it made itself
        service = cls(path)
        if service._events:
            service.close()
            raise ServiceError(f"{path} already holds {len(service._events)} events / "
                               f"{path} 已有 {len(service._events)} 個事件，不能匯入到這裡")
        try:
            if events:  # in one transaction: a refused import leaves no game cut off at the bad line (a review's
                # kept the 149 events before it); checked as a stored log is when the app opens it, under the rules of
                # its day (a change review: a game saved by an earlier version, stakes now over the cap, was refused)
                # each event under the rules it was entered under (its stamp): one stamped with today's rules is
                # checked as if entered now (a code review imported a log written today, edited to seat look-alike
                # names at stakes over the cap)
                batch = tuple(e for _, e in events)
                noted = older if older is not None else OlderRules()
                before = len(noted.let_in)
                r = service._call(lambda: service._submit_many(batch, stored=noted, lines=[n for n, _ in events]))
                if isinstance(r, Refused):
                    evidence = dict(r.evidence)
                    n, e = events[int(evidence.pop("at"))]
                    raise IllegalEvent(r.reason, line=n, event=type(e).__name__, **evidence)
                stored_at = {n: k + 1 for k, (n, _) in enumerate(events)}  # line -> stored number (from 1)
                service._older.let_in += [replace(x, at=stored_at[x.at]) for x in noted.let_in[before:]]
            for seat, tiles in private.items():
                if _current(service.state, seat, None):  # the log already says whether the seat's hand is known
                    service.set_private_hand(seat, tiles)
        except BaseException:
            # a store it made: a refused import leaves none behind; one that was there (empty of events) is left
            # empty
            service.close()
            if made:
                for part in ("", "-wal", "-shm", "-journal"):
                    Path(f"{service.path}{part}").unlink(missing_ok=True)
                service._lock_path.unlink(missing_ok=True)
            raise
        return service

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._jobs.put(None)
        self._thread.join(timeout=10)

    def __enter__(self) -> TableService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the writer thread ------------------------------------------------------------------------

    def _call(self, job: Callable[[], Any], timeout: float | None = 30.0) -> Any:
        if self._closed:
            raise ServiceError("the table service is closed / 牌局服務已關閉")
        if threading.current_thread() is self._thread:
            raise ServiceError("a listener runs on the writer thread: submit from another thread / "
                               "監聽者在寫入執行緒上執行：請從其他執行緒送出事件")
        fut: Future[Any] = Future()
        self._jobs.put((job, fut))
        try:
            return fut.result(timeout)
        except TimeoutError:
            if fut.cancel():  # not started: it never will be, so the caller's failure is the truth, said as the
                # store's other failures are (a review's bare TimeoutError escaped the tap: the phone was told nothing)
                raise ServiceTimeout(
                    f"{self.path}: the table file did not answer within {timeout:g} s (a write before it is stalled); "
                    f"nothing of this was stored: try again / {self.path}：牌局檔 {timeout:g} 秒內沒有回應（前一筆寫入"
                    "卡住了）；這一步沒有記下來，請再試一次") from None
            return fut.result()  # already running: it commits, and the caller hears so

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                break
            job, fut = item
            if not fut.set_running_or_notify_cancel():  # its caller gave up waiting before it started
                continue
            try:
                fut.set_result(job())
            except BaseException as e:  # handed to the caller
                fut.set_exception(e)
        if self._db is not None:
            # a file replaced and not yet noticed: the game is kept now; one removed is written again (a change
            # review: removed, then the app closed before another tap, the game was gone)
            try:
                self._check_file()
            except (ServiceError, OSError, sqlite3.Error) as err:
                if self._db is not None:  # written nowhere a name reaches (not written again): kept now, where said
                    # (a change review: the folder removed and nothing written again, the game was gone at close),
                    # saying what happened (it said "could not be written again" of a file it could not look at)
                    what = err.what if isinstance(err, ServiceError) and err.what is not None else (
                        f"{self.path}: the table file could not be checked when the companion closed ({err})",
                        f"{self.path}：companion 關閉時無法檢查牌局檔（{err}）")
                    name = self.path.name  # (a phone's words by name, never the host's: a third review)
                    self._replaced = self._set_aside((what, (
                        f"the table file {name} could not be checked when the companion closed",
                        f"companion 關閉時無法檢查牌局檔 {name}")), closing=True)
        if self._db is not None:
            self._db.close()
        if self._lock_file is not None:
            self._lock_file.close()  # (closing the file releases the lock)
        if self._file_lock is not None:
            os.close(self._file_lock)

    def _open(self) -> None:
        looping = looping_table(self.path)
        if looping is not None:  # (sqlite said "unable to open database file", naming neither the file nor why)
            raise ServiceError(f"{looping[0]} / {looping[1]}")
        try:
            self._take_lock()
            self._open_db()
        except sqlite3.Error as err:  # (said by its kind: a review read "database disk image is malformed")
            damaged = sqlite_damaged(err)
            raise ServiceError(f"{self.path}: the table database cannot be used "
                               f"({_SQLITE_EN['SQLITE_CORRUPT'] if damaged else err}) / "
                               f"牌局檔無法使用（{sqlite_zh(err)}）", damaged=damaged) from err

    @property
    def _lock_path(self) -> Path:
        # the file's, not a link's: a link to it gets the same lock (realpath: a link that loops is refused by
        # :meth:`_open`, where ``resolve`` raised a bare RuntimeError from the constructor, a traceback on the phone)
        return Path(f"{os.path.realpath(self.path)}.lock")

    def _take_lock(self) -> None:
        """The service is its store's only writer: a second service on the same store, in this process or
        another, is refused (its submits would fail against the first one's events)."""
        try:
            import fcntl
        except ImportError:  # no advisory locks on this system
            return
        try:
            f = open(self._lock_path, "a")  # noqa: SIM115  (held open while the service is)
        except OSError as err:
            dangling = dangling_table(self.path)
            if dangling is not None:  # (said "cannot open its lock file (No such file or directory)", naming the path
                # on a phone: a change review)
                raise ServiceError(f"{dangling[0]} / {dangling[1]}", phone=dangling_table(self.path, by_name=True)
                                   ) from None
            raise ServiceError(f"{self.path}: cannot open its lock file ({err.strerror}) / "
                               f"無法開啟牌局檔的鎖定檔（{os_error_zh(err)}）") from err
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise TableInUse(f"{self.path} is open in another table service / 牌局檔已被另一個程式開啟",
                             phone=IN_USE_PHONE) from None
        self._lock_file = f
        self._lock_the_file()

    def _lock_the_file(self) -> None:
        """Lock the table file itself, whatever its name: a second name for it (a hard link) gave a second service
        an empty table whose writes wiped the first one's (a review). flock and SQLite's own (POSIX) locks do not
        meet. A file not there yet is locked once made (:meth:`_open_db`)."""
        try:
            import fcntl
        except ImportError:  # no advisory locks on this system
            return
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:  # none yet, or unreadable (SQLite says why)
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise TableInUse(f"{self.path} is open in another table service (under another name of the same file) / "
                               "牌局檔已被另一個程式開啟（同一個檔案的另一個名稱）", phone=IN_USE_PHONE) from None
        self._file_lock = fd

    def _open_db(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=True)
        try:  # all read and checked before anything is written: a file refused is left as it was (a review)
            self._check_ours(db)
            tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            state = self._replay(db) if "events" in tables else TableState()
            deal = "deal" if "deal" in {row[1] for row in db.execute("PRAGMA table_info(private)")} else "NULL"
            kept = ({seat: (dealt, _kept_hand(seat, tiles))  # (a store kept before hands were told apart: no deal)
                     for seat, tiles, dealt in db.execute(f"SELECT seat, tiles, {deal} FROM private")}
                    if "private" in tables else {})
        except ev.EventError as err:  # a private hand that cannot be read
            db.close()
            raise ServiceError(f"{self.path}: {err.reason.en} / {self.path}：{err.reason.zh}") from None
        except BaseException:
            db.close()
            raise
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(f"""
            BEGIN;
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, body TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS private (seat INTEGER PRIMARY KEY, tiles TEXT NOT NULL, deal INTEGER);
            CREATE TABLE IF NOT EXISTS questions (id INTEGER PRIMARY KEY, body TEXT NOT NULL, answer INTEGER);
            INSERT OR IGNORE INTO meta VALUES ('db_version', '{_DB_VERSION}');
            COMMIT;
        """)  # one transaction: a crash while a new file is set up leaves no tables without their version
        if "deal" not in {row[1] for row in db.execute("PRAGMA table_info(private)")}:
            db.execute("ALTER TABLE private ADD COLUMN deal INTEGER")  # a store kept before hands were told apart
        self._db = db
        self._state = state
        self._private.update(kept)
        st = os.stat(self.path)
        self._identity = (st.st_dev, st.st_ino)
        self._note_beside()
        if self._file_lock is None:  # made now
            self._lock_the_file()
        for qid, body, answer in db.execute("SELECT id, body, answer FROM questions"):
            try:
                self._questions[qid] = (_question_from(json.loads(body)), answer)
            except (ValueError, TypeError, KeyError) as err:  # kept by a version that stored any question
                log.warning("%s: question #%d cannot be read and is left out: %s", self.path, qid, err)

    def _replay(self, db: sqlite3.Connection) -> TableState:
        """The stored events replayed into ``self._events``: the table they make, or a ServiceError naming the
        first that does not replay (or the file's damage, where that is the cause)."""
        state = TableState()
        for seq, body in db.execute("SELECT seq, body FROM events ORDER BY seq"):
            if seq != len(self._events):
                self._say_if_damaged(db)
                gap = msg("ev_table_gap", seq=seq, prev=len(self._events) - 1) if self._events else \
                    msg("ev_table_start", seq=seq)  # (not "follows #-1": a change review)
                raise ServiceError(f"{self.path}: {gap.en} / {self.path}：{gap.zh}")
            try:
                e = ev.from_dict(loads_json(_body_text(body)))
                state = self._older.step(state, e, seq + 1)  # under its stamp's rules (its number from 1)
            except (ValueError, json.JSONDecodeError) as err:
                self._say_if_damaged(db)
                reason = (err.reason if isinstance(err, IllegalEvent | ev.EventError)  # in both languages
                          else _not_json(err, "ev_stored_not_json") if isinstance(err, json.JSONDecodeError) else None)
                en, zh = (reason.en, reason.zh) if reason is not None else (str(err), str(err))
                raise ServiceError(f"{self.path}: stored event #{seq} cannot be replayed: {en} / "
                                   f"{self.path}：存下的事件 #{seq} 無法重播：{zh}") from err
            self._events.append(e)
        return state

    def _say_if_damaged(self, db: sqlite3.Connection) -> None:
        """A log that does not replay: say so if the file itself is damaged (a review's file cut short was said to
        have 'a gap' in its log), else leave it to the caller to say what is wrong with the log."""
        try:
            found = [row[0] for row in db.execute("PRAGMA quick_check")]
        except sqlite3.Error as err:
            found = [str(err)]
        if found != ["ok"]:
            raise ServiceError(f"{self.path}: the file is damaged ({found[0]}); a saved log (Save log, or "
                               f"`companion replay`'s input) can be opened instead / {self.path}：檔案已損壞"
                               f"（{found[0]}）；可改開存下的紀錄檔")

    def _check_ours(self, db: sqlite3.Connection) -> None:
        """Refuse, before anything is written to it, a database this program did not make (another program's
        tables: a review's opened as an empty game and was changed) or one a newer version made."""
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return  # a new or empty file: made ours now
        version = None
        if "meta" in tables:
            try:
                row = db.execute("SELECT value FROM meta WHERE key = 'db_version'").fetchone()
            except sqlite3.Error:
                row = None
            version = row[0] if row else None
        if version is None and tables <= _OURS and not self._holds_events(db, tables):
            return  # ours, cut short while it was set up by a version that made its tables one by one
        if version is None:
            shown = ", ".join(sorted(tables)[:4]) + (" …" if len(tables) > 4 else "")
            raise ServiceError(f"{self.path}: not a table file of this program (it holds the tables {shown}); left "
                               f"untouched / {self.path}：不是這個程式的牌局檔（裡面是 {shown} 這些資料表），沒有動它")
        if str(version) != _DB_VERSION:
            raise ServiceError(f"{self.path}: a table file of another version of this program (format {version}, this "
                               f"one reads {_DB_VERSION}); left untouched / {self.path}：是另一個版本的牌局檔（格式 "
                               f"{version}，這個版本讀的是 {_DB_VERSION}），沒有動它")

    @staticmethod
    def _holds_events(db: sqlite3.Connection, tables: set[str]) -> bool:
        if "events" not in tables:
            return False
        try:
            return db.execute("SELECT 1 FROM events LIMIT 1").fetchone() is not None
        except sqlite3.Error:
            return True

    def _submit(self, event: ev.Event, also: Write | None = None) -> Accepted | Refused:
        """``also`` writes what belongs with the event (an answer, a private hand) in its transaction."""
        return self._submit_many((event,), also)

    def _submit_many(self, events: tuple[ev.Event, ...], also: Write | None = None,
                     stored: OlderRules | None = None, lines: Sequence[int] = ()) -> Accepted | Refused:
        """Each event checked on the table the ones before it leave, then all stored in one transaction (with
        ``also``), then acknowledged: all of them or none. Each is checked as entered now and stored stamped with
        today's rules, or (``stored``: a log imported, its events at ``lines``) under the rules its own stamp names,
        and stored with it; ``stored`` notes those that today's rules refuse."""
        if not events:
            raise ValueError("no events to submit / 沒有要送出的事件")
        states = []
        bodies = []
        kept = []
        state = self._state
        for k, event in enumerate(events):
            try:
                if stored is not None:
                    state = stored.step(state, event, lines[k] if lines else k + 1)
                else:
                    state = step(state, event)
                    if event.rules_version != ev.RULES_VERSION:  # (one read from a log, entered again now)
                        event = replace(event, rules_version=ev.RULES_VERSION)
                body = _storable(event)  # the rules do not look at types: the log's reader does
            except IllegalEvent as e:
                body = Refused(e.reason, e.evidence)
            except (TypeError, AttributeError, ValueError, KeyError) as e:  # a field of the wrong type
                bad = _storable(event)
                body = bad if isinstance(bad, Refused) else _unsaved(event, e)
            if isinstance(body, Refused):  # (in a batch, which of its events)
                return body if len(events) == 1 else Refused(body.reason, (*body.evidence, ("at", str(k))))
            states.append(state)
            bodies.append(body)
            kept.append(event)
        first = len(self._events)

        def store(db: sqlite3.Connection) -> None:
            db.executemany("INSERT INTO events (seq, body) VALUES (?, ?)",
                           [(first + k, body) for k, body in enumerate(bodies)])
            if also is not None:
                also(db)

        try:
            self._write(store)  # one transaction, committed before the acknowledgement
        except sqlite3.Error as err:  # a full disk, a read-only store: nothing was stored, the table is as it was
            raise ServiceError(f"{self.path}: the event could not be stored ({err}) / "
                               f"{self.path}：事件無法存入牌局檔（{sqlite_zh(err)}）") from err  # (both name it: a review)
        for k, (event, new) in enumerate(zip(kept, states, strict=True)):
            self._events.append(event)
            self._state = new
            self._listeners.tell(event, first + k, new)
        return Accepted(first + len(events) - 1, self._state)

    def _ask(self, q: Question) -> int:
        for i, c in enumerate(q.choices):  # a choice's event is stored with the question: it must read back too
            bad = _storable(c.event) if c.event is not None else None
            if isinstance(bad, Refused):
                raise ServiceError(f"{self.path}: choice {i} of the question cannot be stored: {bad.reason.en} / "
                                   f"問題的第 {i} 個選項無法存檔：{bad.reason.zh}")
        cur = self._write(lambda db: db.execute("INSERT INTO questions (body) VALUES (?)",
                                                (json.dumps(_question_json(q)),)))
        qid = int(cur.lastrowid or 0)
        self._questions[qid] = (q, None)
        return qid

    def _answer(self, qid: int, choice: int) -> Accepted | Refused | None:
        if qid not in self._questions:
            raise KeyError(f"no question #{qid} / 沒有第 {qid} 號問題")
        q, done = self._questions[qid]
        if done is not None:
            raise ValueError(f"question #{qid} was already answered (choice {done}) / 第 {qid} 號問題已回答（選項 {done}）")
        if not 0 <= choice < len(q.choices):
            raise ValueError(f"question #{qid} has choices 0-{len(q.choices) - 1}, got {choice} / "
                             f"第 {qid} 號問題的選項是 0-{len(q.choices) - 1}，收到 {choice}")
        event = q.choices[choice].event

        def mark(db: sqlite3.Connection) -> None:
            db.execute("UPDATE questions SET answer = ? WHERE id = ?", (choice, qid))

        # the answer and its event commit together: a crash leaves both or neither
        result: Accepted | Refused | None = None
        if event is None:
            self._write(mark)
        else:
            result = self._submit(event, mark)
            if isinstance(result, Refused):
                return result
        self._questions[qid] = (q, choice)
        return result

    def _check_file(self) -> None:
        """The file the log is written to is still the one opened. One removed (a player's `rm` to start over, a sync
        tool) took every later tap into a file no name reached, and the next start found none of them (a review):
        it is written again, whole, from the open one (which lives on while it is open), and the game goes on. One
        replaced by another file is another program's: refused, saying how to keep the game."""
        if self._replaced is not None:
            raise self._replaced
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            dangling = dangling_table(self.path)
            if dangling is not None:  # made a link to nothing while open: said so, not "removed" (a third review)
                named = dangling_table(self.path, by_name=True)
                assert named is not None
                self._replaced = self._set_aside(_put_there(dangling, named, self.path not in self._links_at_open))
                raise self._replaced from None
            self._write_again()
            return
        except OSError as err:  # (not known to be another file: nothing set aside, the next tap looks again)
            looping = looping_table(self.path)
            if looping is not None:  # the file no name reaches any more: the game kept beside it, as for one replaced
                named = looping_table(self.path, by_name=True)
                assert named is not None
                self._replaced = self._set_aside(_put_there(looping, named, self.path not in self._links_at_open))
                raise self._replaced from None
            blocker = file_in_the_way(self.path.parent) if err.errno in (errno.ENOTDIR, errno.ELOOP) else None
            if blocker is not None:  # the folder made a file, or a link that loops, while open: named as at the start,
                # the game kept in the nearest folder that can take it (it was in memory alone, lost at close)
                self._replaced = self._set_aside(_put_there(in_the_way_said(blocker),
                                                            in_the_way_said(blocker, by_name=True),
                                                            blocker not in self._links_at_open))
                raise self._replaced from None
            raise ServiceError(
                f"{self.path}: the table file cannot be looked at ({err.strerror}) / "
                f"{self.path}：無法查看牌局檔（{os_error_zh(err)}）",
                phone=(f"the table file {self.path.name} cannot be looked at ({err.strerror})",
                       f"無法查看牌局檔 {self.path.name}（{os_error_zh(err)}）"),
                what=(f"{self.path}: the table file could not be looked at when the companion closed ({err.strerror})",
                      f"{self.path}：companion 關閉時無法查看牌局檔（{os_error_zh(err)}）")) from err
        if self._identity is not None and (st.st_dev, st.st_ino) != self._identity:
            self._replaced = self._set_aside()
            raise self._replaced

    def _note_beside(self) -> None:
        """Which -wal and -shm files the open connection uses, to know them from another file's."""
        self._beside = {}
        for part in ("-wal", "-shm"):
            with contextlib.suppress(OSError):
                st = os.stat(f"{self.path}{part}")
                self._beside[part] = (st.st_dev, st.st_ino)

    def _set_aside(self, put: Put | None = None, closing: bool = False) -> ServiceError:
        """A table file replaced by another while open (a sync tool, a backup restored): the open game is written
        whole to a file of its own beside it, and this connection's -wal and -shm are taken away from beside the
        file put there. Left there, they were read over the new file's pages: a review's was "malformed" at once,
        or it opened as the old game, whose checkpoint then wrote it over the new file for good. The file put there
        is left as it came; no more is written by this service. ``put``: what happened, for the host and for a phone
        (:func:`_put_there`), naming what was put there (a link that loops: :func:`looping_table`), where it is not
        another file; ``closing``: found as the service closes. Where no file can be made beside it (its folder is
        no folder any more), the game is kept in the nearest folder that can take it (:meth:`_keep_path`). What was
        kept, and where, is said on stderr too, in both languages (the host sees it when the app stops)."""
        assert self._db is not None
        kept: Path | None = None
        where = "beside"
        why: tuple[str, str] = ("", "")
        why_phone = why
        try:
            kept, where = self._keep_path()
            copy = sqlite3.connect(kept, isolation_level=None)
            try:
                self._db.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, whole: nothing beside it to lose
                with copy:  # which table it is a copy of (:func:`kept_copies`: another table's were listed, a review)
                    copy.execute("BEGIN IMMEDIATE")
                    copy.execute("INSERT OR REPLACE INTO meta VALUES ('kept_from', ?)", (os.path.abspath(self.path),))
            finally:
                copy.close()
        except (sqlite3.Error, OSError) as err:
            log.error("%s: the game could not be kept beside the replaced file: %s", self.path, err)
            why = (str(err), os_error_zh(err)) if isinstance(err, OSError) else (str(err), sqlite_zh(err))
            why_phone = _why_by_kind(err)  # (no path: a review)
            if kept is not None:
                kept.unlink(missing_ok=True)
            kept = None
        for part, identity in self._beside.items():  # ours only: a -wal the new file came with is its own
            with contextlib.suppress(OSError):
                st = os.stat(f"{self.path}{part}")
                if (st.st_dev, st.st_ino) == identity:
                    os.unlink(f"{self.path}{part}")
        self._beside = {}
        self._db.close()
        self._db = None
        said = self._set_aside_said(kept, where, (why, why_phone), put, closing)
        log.warning("%s", said)
        return said

    def _set_aside_said(self, kept: Path | None, where: str, whys: tuple[tuple[str, str], tuple[str, str]],
                        put: Put | None, closing: bool) -> ServiceError:
        """:meth:`_set_aside`'s words: what happened, and where the game is kept (or why it could not be: ``whys``,
        the host's words and a phone's, each in English and Chinese), with what the host can do: in full for the
        host (the log, stderr), by name for a phone (``phone``)."""
        why, why_phone = whys
        name = self.path.name
        if put is None:
            put = ((f"{self.path}: the table file was replaced while the companion had it open",
                    f"{self.path}：牌局檔在使用中被換掉了"),
                   (f"the table file {name} was replaced while the companion had it open", f"牌局檔 {name} 在使用中被換掉了"))
            left = (" (the file put there is left as it is)", "（換上的檔案沒有動）")
        else:
            left = ("", "")
        (en, zh), (p_en, p_zh) = put
        more = ("", "") if closing else (f": nothing more is stored there{left[0]}", f"，之後的紀錄存不進去{left[1]}")
        if kept is None:
            lost = ((f"{more[0]}, and the game could not be kept elsewhere", f"{more[1]}，這局也無法另存") if more[0]
                    else (": the game could not be kept elsewhere", "：這局無法另存"))
            save = ("; save the log (Save log) to keep the game", "；請先「下載紀錄」存下這局")
            return ServiceError(
                f"{en}{lost[0]} ({why[0]}){save[0]} / {zh}{lost[1]}（{why[1]}）{save[1]}",
                phone=(f"{p_en}{lost[0]} ({why_phone[0]}){save[0]}", f"{p_zh}{lost[1]}（{why_phone[1]}）{save[1]}"))
        folder = self.path.parent.name
        at = {"beside": (", beside it", "，在牌局檔旁邊"),
              "above": (f", in the folder {kept.parent.name} above {folder}", f"，在 {folder} 上層的資料夾 {kept.parent.name}"),
              "home": (", in the host's home folder", "，在主機的家目錄"),
              "here": (", in the folder the app was started from", "，在 companion app 啟動時所在的資料夾")}[where]
        return ServiceError(
            f"{en}{more[0]}; the game so far is kept in {kept}: the host can restart the app with --table {kept} to "
            f"go on / {zh}{more[1]}；這局到目前為止另存在 {kept}，主機可以用 --table {kept} 重新啟動 companion app 接著記錄",
            # no command here: a bare name given to --table from another folder began a new game (a fourth review)
            phone=(f"{p_en}{more[0]}; the game so far is kept as {kept.name}{at[0]}; the host's terminal and log give "
                   "the command to go on with it",
                   f"{p_zh}{more[1]}；這局到目前為止另存為 {kept.name}{at[1]}；主機的終端機和紀錄檔裡有接著記錄的指令"))

    def _keep_path(self) -> tuple[Path, str]:
        """A new file beside the table for the game it held: ``table.kept-1.sqlite``, the next number free; where
        none can be made there (its folder made a file or a link to nothing while open: a change review's game was
        then lost at close), in the nearest folder above it that is there and can be written, else the home folder,
        else the current one, named for the app there (``companion-table.kept-1.sqlite``: a shared folder's
        ``table.kept-1.sqlite`` said nothing of whose it was: a change review); and which of those it is
        (:func:`_keep_folders`)."""
        tried: OSError | None = None
        for folder, where in _keep_folders(self.path.parent):
            for n in range(1, 10_000):
                candidate = folder / kept_name(self.path, n, beside=where == "beside")
                try:
                    os.close(os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
                except FileExistsError:
                    continue
                except OSError as err:  # (no folder there: the next)
                    tried = tried or err
                    break
                return candidate, where
        raise tried or NoFreeName(f"no free name beside {self.path}")

    def _write_again(self) -> None:
        """The table file written again at its path from the open connection (SQLite's backup), then used."""
        assert self._db is not None
        try:
            make_folder(self.path.parent)  # (its folder removed with it; one made a link to nothing is named)
        except NotAFolderError as err:  # the game kept where a folder can take it (it was lost at close: a review)
            self._replaced = self._set_aside(_put_there((str(err.strerror), err.zh),
                                                        in_the_way_said(err.file, by_name=True),
                                                        err.file not in self._links_at_open))
            raise self._replaced from None
        except OSError:  # (sqlite says why below)
            pass
        try:
            fresh = sqlite3.connect(self.path, isolation_level=None)
            try:
                self._db.backup(fresh)
                fresh.execute("PRAGMA journal_mode=WAL")
                fresh.execute("PRAGMA synchronous=FULL")
            except BaseException:
                fresh.close()
                raise
        except (sqlite3.Error, OSError) as err:
            err_zh = os_error_zh(err) if isinstance(err, OSError) else sqlite_zh(err)  # (English in the Chinese: a review)
            raise ServiceError(
                f"{self.path}: the table file was removed while the companion had it open, and cannot be written "
                f"again ({err}): save the log (Save log) to keep the game / {self.path}：牌局檔在使用中被刪除了，"
                "也無法重新寫入；請先「下載紀錄」存下這局",
                phone=(f"the table file {self.path.name} was removed while the companion had it open, and cannot be "
                       "written again: save the log (Save log) to keep the game",
                       f"牌局檔 {self.path.name} 在使用中被刪除了，也無法重新寫入；請先「下載紀錄」存下這局"),
                what=(f"{self.path}: the table file was removed while the companion had it open, and could not be "
                      f"written again when it closed ({err})",
                      f"{self.path}：牌局檔在使用中被刪除了，companion 關閉時也無法重新寫入（{err_zh}）")) from err
        self._db.close()
        self._db = fresh
        # said once it is (it was said at every tap that could not write it, and at close: a change review)
        log.warning("%s: the table file was removed while open: written again from the open one", self.path)
        st = os.stat(self.path)
        self._identity = (st.st_dev, st.st_ino)
        self._note_beside()
        if self._file_lock is not None:
            os.close(self._file_lock)
            self._file_lock = None
        if self._lock_file is not None and not self._lock_path.exists():  # removed with it: a new one, held
            self._lock_file.close()
            self._lock_file = None
            self._take_lock()
        else:
            self._lock_the_file()

    def _write(self, write: Callable[[sqlite3.Connection], T]) -> T:
        """``write`` in one transaction, on the file the log is still in (:meth:`_check_file`)."""
        self._check_file()
        assert self._db is not None
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            done = write(self._db)
        self._empty_wal()
        return done

    def _empty_wal(self) -> None:
        """Each commit moved into the main file and the -wal emptied: a file put in the table's place finds no
        frames of this game beside it to be read over its own pages (a review's was "malformed" the moment it was
        put there, before the app could notice), and a copy of the main file alone holds the whole game."""
        assert self._db is not None
        try:
            # not waiting on a reader (another program reading the file held each tap 5 s: a change review): one
            # mid-read leaves the frames in the -wal, stored, for the next write to move
            (wait,) = self._db.execute("PRAGMA busy_timeout").fetchone()
            self._db.execute("PRAGMA busy_timeout=0")
            try:
                busy, _, _ = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            finally:
                self._db.execute(f"PRAGMA busy_timeout={int(wait)}")
            if busy:
                log.info("%s: a reader holds the file: the -wal is emptied at a later write", self.path)
        except sqlite3.Error as err:  # stored already, in the -wal; emptied at the next one
            log.warning("%s: checkpoint after a write failed: %s", self.path, err)

    def _set_private(self, seat: int, tiles: tuple[Tile, ...]) -> None:
        if not 0 <= seat < 4:
            raise ValueError(f"a seat is 0-3, got {seat} / 座位必須是 0-3，收到 {seat}")

        deal = self._state.deals

        def store(db: sqlite3.Connection) -> None:
            db.execute("INSERT OR REPLACE INTO private VALUES (?, ?, ?)", (seat, format_tiles(tiles), deal))

        # during a hand the log's HandKnown and the stored tiles commit together
        if not (self._state.in_hand and not self._state.seats[seat].known
                and isinstance(self._submit(ev.HandKnown(seat=seat), store), Accepted)):
            self._write(store)
        self._private[seat] = (deal, tiles)


def _current(state: TableState, seat: int, deal: int | None) -> bool:
    """Whether a private hand kept in deal ``deal`` is the seat's now: the same deal (an undone deal brings the
    last hand's back), and during a hand only while the log says the seat's hand is known (an undone
    ``HandKnown`` hides it). A hand kept before deals were told apart (``None``) has only the second test."""
    if deal is not None and deal != state.deals:
        return False
    return not (0 <= seat < 4 and state.in_hand and not state.seats[seat].known)


def _storable(event: ev.Event) -> str | Refused:
    """The event's stored text, or why it is refused: an event is stored only when it reads back as itself,
    so that no accepted event can make the saved game unopenable (a float stake, a ``None`` note, a string
    where a tile belongs: the tracker's rules do not look at types, the reader of the log does)."""
    try:
        body = json.dumps(ev.to_dict(event), ensure_ascii=False)
        back = ev.from_dict(json.loads(body))
    except ev.EventError as e:
        return Refused(e.reason, (("event", type(event).__name__),))
    except (TypeError, ValueError, AttributeError, KeyError) as e:
        return _unsaved(event, e)
    if back != event:
        return _unsaved(event, f"reads back as {back}", f"讀回來是 {back}")
    return body


def _unsaved(event: ev.Event, why: object, why_zh: object = None) -> Refused:
    """An event refused because it cannot be stored as it is, naming the event and why."""
    name = type(event).__name__
    return Refused(msg("ev_bad_field", where=name, detail=f"無法存檔：{why if why_zh is None else why_zh}",
                       detail_en=f"cannot be saved: {why}"), (("event", name),))


def read_jsonl(lines: Iterable[str | bytes]) -> tuple[list[tuple[int, ev.Event]], dict[int, tuple[Tile, ...]]]:
    """Events (with their line numbers) and private hands from an exported session or a plain log (lines of
    text, or of bytes read in binary, so that bytes that are not UTF-8 are reported on their own line);
    :class:`~companion.game.events.EventError` names the line that cannot be read."""
    events: list[tuple[int, ev.Event]] = []
    private: dict[int, tuple[Tile, ...]] = {}
    n = 0
    want: object = None  # the event count an export's header promises
    header = 0  # its line
    try:
        for n, raw in enumerate(lines, 1):
            if n == 1:  # a photo given for a log: what to do with it (a newcomer was told "not UTF-8")
                photo = picture_kind(raw[:16] if isinstance(raw, bytes) else raw[:16].encode("utf-8", "replace"))
                if photo is not None:
                    raise ev.EventError(msg("ev_photo", kind=photo))
            line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            if n == 1:
                line = line.removeprefix("\ufeff")  # a byte-order mark, as Windows editors write one
            if not line.strip():
                continue
            try:
                data = loads_json(line.rstrip("\r\n"))  # (with its line break, an unclosed text was said to hold one)
            except json.JSONDecodeError as e:
                if not events and not header and LEDGER_CSV_HEAD.match(line):  # the other download: said so
                    raise ev.EventError(msg("ev_ledger_csv")) from None
                raise ev.EventError(_not_json(e)) from None
            if isinstance(data, dict) and data.get("schema") == EXPORT_SCHEMA:
                if header:  # (it was read as the count to have: a review's joined files were "cut short")
                    raise ev.EventError(msg("ev_second_header", first=header))
                header = n
                private.update(_private_from(data.get("private", {})))
                want = data.get("events")
                continue
            events.append((n, ev.from_dict(data)))
    except UnicodeDecodeError as e:  # read in text mode, the bad bytes are met a chunk ahead of the line count
        photo = picture_kind(e.object[:16]) if n == 0 else None  # (its first line, not read yet)
        if photo is not None:
            raise ev.EventError(msg("ev_photo", kind=photo)) from None
        raise ev.EventError(msg("ev_not_utf8", detail=e.reason)).at_line(n) from None
    except ev.EventError as e:
        raise e.at_line(n) from None
    if isinstance(want, int) and not isinstance(want, bool):
        if want < 0:
            raise ev.EventError(msg("ev_bad_header", detail=f"事件數不能是負的，收到 {want}",
                                    detail_en=f"an event count cannot be negative, got {want}"))
        if want < len(events):  # not "cut short" (a review)
            raise ev.EventError(msg("ev_too_many", got=len(events), want=want, line=events[want][0]))
        if want > len(events):
            raise ev.EventError(msg("ev_cut_short", got=len(events), want=want))
    return events, private


def picture_kind(head: bytes) -> str | None:
    """The kind of picture file whose first bytes are ``head`` (JPEG, PNG, …), or None."""
    if head.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if head.startswith(b"\x89PNG"):  # (its line ends inside the signature)
        return "PNG"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    if head[:4] == b"RIFF" and (head[8:12] == b"WEBP" or len(head) < 12):  # (its first line may end in its size)
        return "WebP"
    if head[4:8] == b"ftyp" and head[8:12] in (b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1",
                                                b"msf1"):  # (a video's box is ftyp too: not called a photo)
        return "HEIC"
    if head[4:8] == b"ftyp" and head[8:12] == b"avif":
        return "AVIF"
    return None


LEDGER_CSV_HEAD = re.compile(r"把 Hand,|第 \d+ 將 Session \d+\s*$")
"""The first line of the Ledger tab's CSV (``companion.app.ledger_model.ledger_csv``: its headings, or its first
session's name), given for a game log."""

SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first bytes of a SQLite file: a table service's store rather than a JSON-lines log."""


def _not_json(e: json.JSONDecodeError, key: str = "ev_not_json") -> Msg:
    """A log line (or with ``key`` ``ev_stored_not_json``, a stored event) that is not JSON: where, and why."""
    en, zh = json_error_said(e)  # (the reader's own sentence, "Unterminated string starting at: line 1 column 66
    return msg(key, detail=en, why=zh)  # (char 65)", reached the player, in English alone: a review)


def _body_text(body: object) -> str:
    """A stored event's body as text. SQLite hands back a blob where another program wrote bytes: read as UTF-8 (a
    review's blob of bytes that are not was a traceback), as the JSON reader would; anything else is no event."""
    if isinstance(body, bytes):
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ev.EventError(msg("ev_not_utf8", detail=e.reason)) from None
    if not isinstance(body, str):
        raise ev.EventError(msg("ev_not_object", data=ev.as_written(body, 200)))
    return body


_SQLITE_ZH = {"SQLITE_FULL": "磁碟已滿", "SQLITE_READONLY": "檔案或資料夾是唯讀的，無法寫入", "SQLITE_CORRUPT": "檔案已損壞",
              "SQLITE_NOTADB": "不是資料庫檔，或已損壞", "SQLITE_CANTOPEN": "無法開啟檔案", "SQLITE_IOERR": "讀寫檔案時出錯",
              "SQLITE_BUSY": "檔案正被另一個程式使用", "SQLITE_LOCKED": "檔案正被另一個程式使用",
              "SQLITE_PERM": "沒有權限", "SQLITE_AUTH": "沒有權限"}


Put = tuple[tuple[str, str], tuple[str, str]]
"""What happened to a table file while open, in English and Chinese: the host's words (full paths), a phone's (by
name)."""


def _put_there(host: tuple[str, str], phone: tuple[str, str], put: bool = True) -> Put:
    """What was put in the table file's place, or its folder's, while the table was open (English, Chinese: the
    host's, a phone's), said so for :meth:`TableService._set_aside`; ``put``: False where it stood there when the
    table was opened (a link to a drive unplugged since), said as it is. Not in parentheses: a link to nothing is
    already "(a drive not plugged in?)" (a fourth review)."""
    if not put:
        return host, phone
    tail = ("; it was put there while the companion had the table open", "（牌局使用中被換上的）")
    return (host[0] + tail[0], host[1] + tail[1]), (phone[0] + tail[0], phone[1] + tail[1])


_SQLITE_EN = {"SQLITE_FULL": "the disk is full", "SQLITE_READONLY": "the file or folder is read-only",
              "SQLITE_CORRUPT": "the file is damaged", "SQLITE_NOTADB": "not a database file, or damaged",
              "SQLITE_CANTOPEN": "the file cannot be opened", "SQLITE_IOERR": "an error reading or writing the file",
              "SQLITE_BUSY": "another program is using the file", "SQLITE_LOCKED": "another program is using the file",
              "SQLITE_PERM": "no permission", "SQLITE_AUTH": "no permission"}


def _why_by_kind(err: OSError | sqlite3.Error) -> tuple[str, str]:
    """Why a game could not be kept, for a phone, in English and Chinese: from the error's kind (its errno, SQLite's
    code) alone, never its text, which may hold a host path (a fourth review: "no free name beside /…/table.sqlite",
    and a Chinese fallback that quoted it)."""
    if isinstance(err, NotAFolderError):
        return in_the_way_said(err.file, by_name=True)
    if isinstance(err, OSError):
        if isinstance(err, NoFreeName):  # (:meth:`TableService._keep_path`'s own)
            return "no free name for a copy", "找不到可用的檔名"
        if not err.errno:  # (any other without one: its text may hold a path)
            return "the system refused", "系統拒絕"
        return os.strerror(err.errno), os_error_zh(OSError(err.errno, os.strerror(err.errno)))
    name = str(getattr(err, "sqlite_errorname", "") or "")
    code = next((c for c in _SQLITE_EN if name == c or name.startswith(c + "_")), None)
    if code is None:
        return "a database error", "資料庫錯誤"
    return _SQLITE_EN[code], _SQLITE_ZH[code]


def kept_name(table: Path, n: int, beside: bool = True) -> str:
    """The name of the ``n``-th copy of the table file ``table`` set aside: ``table.kept-1.sqlite`` beside it,
    ``companion-table.kept-1.sqlite`` elsewhere (a shared folder, the home folder)."""
    return f"{'' if beside else 'companion-'}{table.stem}.kept-{n}{table.suffix}"


def _keep_folders(folder: Path) -> Iterator[tuple[Path, str]]:
    """Where a game set aside is kept (:meth:`TableService._keep_path`), and which it is: ``folder`` ("beside"), then
    the nearest folder above it that is there and can be written ("above"; named as the table was: not through
    links), then the home folder ("home"), then the current one ("here")."""
    yield folder, "beside"
    for above in Path(os.path.abspath(folder)).parents:
        if os.path.isdir(above) and os.access(above, os.W_OK):
            yield above, "above"
            break
    try:
        home = Path.home()
    except RuntimeError:  # (no home folder known)
        pass
    else:
        yield home, "home"
    yield Path.cwd(), "here"


def kept_copies(table: Path) -> list[Path]:
    """The copies of ``table``'s game set aside earlier (:meth:`TableService._set_aside`) that are still there: beside
    it, or (``companion-…``) in a folder above it, the home folder or the current one, where the service would have
    put them. ``companion app`` names them at its start (a fresh game began and said nothing of the kept one: a change
    review). Only ``<stem>.kept-<digits><suffix>`` that is a table file (:func:`_kept_table`): a third review's listed
    ``companion-table.kept-notes.sqlite``, an empty ``table.kept-old.sqlite``, and another table's copies (a stem
    with ``[`` in it, read as a pattern). One away from the table (``companion-…``) only where it says it is a copy of
    this table (``kept_from`` in its ``meta``): every table is ``table.sqlite``, and a fourth review's start-up listed
    another data folder's copy found in a folder above."""
    folder = Path(os.path.abspath(table.parent))
    found = set(_kept_in(folder, table, ""))  # (by its name: one kept before copies said whose they were is listed)
    try:
        home: list[Path] = [Path.home()]
    except RuntimeError:
        home = []
    for other in (*folder.parents, *home, Path.cwd()):
        found.update(_kept_in(other, table, "companion-"))
    return sorted(found, key=lambda p: (str(p.parent), len(p.name), p.name))


def _kept_in(folder: Path, table: Path, prefix: str) -> list[Path]:
    """The kept copies of ``table`` in ``folder``, named ``<prefix><stem>.kept-<digits><suffix>``."""
    name = re.compile(re.escape(f"{prefix}{table.stem}.kept-") + r"[0-9]+" + re.escape(table.suffix))
    try:
        candidates = list(folder.glob(f"{glob.escape(prefix + table.stem)}.kept-*{glob.escape(table.suffix)}"))
    except OSError:
        return []
    sources = (os.path.abspath(table), os.path.realpath(table))
    found = []
    for p in candidates:
        kept = _kept_table(p) if name.fullmatch(p.name) else None
        if kept is not None and (not prefix or kept[0] in sources):
            found.append(p)
    return found


def _kept_table(path: Path) -> tuple[str | None, int] | None:
    """Whether ``path`` is a table file (an SQLite file holding the table's ``events``, read without writing:
    nothing made beside it): which table it was kept from (:meth:`TableService._set_aside`; None in one kept before
    that was said) and how many entries it holds; None where it is none, or cannot be read."""
    try:
        with open(path, "rb") as f:
            if f.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
                return None
        db = sqlite3.connect(f"{Path(os.path.abspath(path)).as_uri()}?mode=ro", uri=True)
        try:
            tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "events" not in tables:
                return None
            (count,) = db.execute("SELECT COUNT(*) FROM events").fetchone()
            row = db.execute("SELECT value FROM meta WHERE key = 'kept_from'").fetchone() if "meta" in tables else None
            return (str(row[0]) if row else None), int(count)
        finally:
            db.close()
    except (OSError, sqlite3.Error, ValueError):
        return None


def kept_entries(path: Path) -> int:
    """How many entries the kept copy ``path`` (:func:`kept_copies`) holds: 0 for a game kept before its first one
    (still the host's, said "(no entries)" at the start: a fourth review), and where it cannot be read."""
    kept = _kept_table(path)
    return 0 if kept is None else kept[1]


def looping_table(path: Path, by_name: bool = False) -> tuple[str, str] | None:
    """Why ``path`` cannot be a table file when it is a link that loops (back on itself, or through other links),
    in English and Chinese, naming it; None otherwise (a folder on the way that loops is no such link:
    :func:`companion.files.file_in_the_way` names it). The words of ``companion app``'s start and of a table file made
    such a link while the app had it open (a change review: the first said it, the second raised "Symlink loop")."""
    try:
        os.stat(path)
    except OSError as e:
        if e.errno != errno.ELOOP or not os.path.islink(path):
            return None
    else:
        return None
    try:
        os.stat(path.parent)
    except OSError:  # (the loop is above it)
        return None
    shown = path.name if by_name else path
    return f"{shown} is a link that loops back on itself, not a table file", f"{shown} 是繞回自己的符號連結，不是牌局檔"


def dangling_table(path: Path, by_name: bool = False) -> tuple[str, str] | None:
    """Why ``path`` cannot be a table file when it is a link to nothing there (a drive not mounted), in English and
    Chinese, naming it (``by_name``: by its name alone, as a phone says it) and where it leads; None otherwise. It was
    said "cannot open its lock file (No such file or directory)" (a change review)."""
    if not os.path.islink(path) or os.path.exists(path) or looping_table(path) is not None:
        return None
    try:
        to = os.readlink(path)
    except OSError:
        return None
    if by_name:  # (where it leads is a host path: on the host's stderr alone, a third review)
        return (f"{path.name} is a link to a place that is not there (a drive not plugged in?), not a table file",
                f"{path.name} 是符號連結，指向的地方不存在（磁碟沒接上？），不是牌局檔")
    shown = path
    return (f"{shown} is a link to {to}, which is not there: it is not a table file",
            f"{shown} 是符號連結，指向的 {to} 不存在，不是牌局檔")


def sqlite_zh(err: sqlite3.Error) -> str:
    """The gist of a SQLite error in Chinese (its English is ``str(err)``): a review read "database or disk is
    full" in the Chinese half of a refusal."""
    name = str(getattr(err, "sqlite_errorname", "") or "")
    said = next((zh for code, zh in _SQLITE_ZH.items() if name == code or name.startswith(code + "_")), None)
    if said is not None:
        return said
    if "no such table" in str(err):
        return _NOT_OURS[1]
    return f"資料庫錯誤：{err}"


_NOT_OURS = "not a table file of this program (its tables are missing)", "不是這個程式的牌局檔（缺少它的資料表）"
"""A SQLite file of another program's, replayed: said so in both languages (its English was SQLite's own "no such
table: events", the Chinese this; a first-hour review)."""


def sqlite_en(err: sqlite3.Error) -> str:
    """The gist of a SQLite error in English, as :func:`sqlite_zh` says it in Chinese: SQLite's own words, except for
    a file that is not a table file at all."""
    return _NOT_OURS[0] if "no such table" in str(err) else str(err)


def sqlite_damaged(err: sqlite3.Error) -> bool:
    """Whether SQLite found the file damaged (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``: a file cut short, say), where
    nothing else (a moment's lock, a full disk) is to blame."""
    name = str(getattr(err, "sqlite_errorname", "") or "")
    return any(name == code or name.startswith(code + "_") for code in ("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def _bad_table(err: sqlite3.Error) -> ev.EventError:
    """A table file that could not be read: a damaged one said so in both languages, never in SQLite's words (a
    review read "database disk image is malformed"); another error in :func:`sqlite_en`'s words and :func:`sqlite_zh`'s."""
    if sqlite_damaged(err):
        return ev.EventError(msg("ev_table_damaged"))
    return ev.EventError(msg("ev_bad_table", detail=sqlite_zh(err), detail_en=sqlite_en(err)))


def read_log(path: str | Path) -> tuple[list[tuple[int, ev.Event]], dict[int, tuple[Tile, ...]]]:
    """A log file as :func:`read_jsonl` reads it, or a table service's store (the app's live table), read without
    writing to it, so while the app keeps it open too; its events are numbered from 1 like lines. ``OSError`` when
    the file cannot be opened; :class:`~companion.game.events.EventError` when its content cannot be read."""
    events, private, _table = read_log_or_table(path)
    return events, private


def read_log_or_table(path: str | Path) -> tuple[list[tuple[int, ev.Event]], dict[int, tuple[Tile, ...]], bool]:
    """:func:`read_log`, and whether ``path`` held a table file (its events are then said by their stored number):
    known as it is read, so a pipe (``/dev/stdin``), which can be read once, is read once. A table file through a
    pipe is spooled to a temporary file, which SQLite reads by name (``cat table.sqlite | companion replay
    /dev/stdin`` was refused as "unable to open database file": a review)."""
    p = Path(path)
    with open(p, "rb") as f:
        head = f.read(len(SQLITE_MAGIC))
        if head != SQLITE_MAGIC:
            if f.seekable():
                f.seek(0)
                return (*read_jsonl(f), False)
            return (*read_jsonl(itertools.chain(io.BytesIO(head + f.readline()), f)), False)  # (a pipe: /dev/stdin)
        if not f.seekable():
            try:
                return (*_read_piped(head, f), True)
            except sqlite3.Error as err:
                raise _bad_table(err) from None
    return (*_read_table(p), True)


def _read_piped(head: bytes, f: IO[bytes]) -> tuple[list[tuple[int, ev.Event]], dict[int, tuple[Tile, ...]]]:
    """A table file read from a pipe, ``head`` its first bytes read already: written to a temporary folder and
    read there. A pipe carries the file alone, not the ``-wal`` beside it: what that held is not in it, as in a copy
    of the file alone."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="companion-read-") as folder:
        copy = Path(folder) / "table.sqlite"
        with open(copy, "wb") as out:
            out.write(head)
            shutil.copyfileobj(f, out)
        return _read_store(copy.as_uri())


def _read_table(p: Path) -> tuple[list[tuple[int, ev.Event]], dict[int, tuple[Tile, ...]]]:
    """The table file ``p`` read without writing to it (:func:`read_log`)."""
    try:
        try:
            return _read_store(f"{p.resolve().as_uri()}?mode=ro")
        except sqlite3.OperationalError as first:
            # a table in a read-only folder (a USB stick, a backup): SQLite cannot make the -shm a WAL file's
            # reader needs there (a review's replay was refused); with no -wal beside it, all is in the file
            if not Path(f"{p}-wal").exists():
                return _read_store(f"{p.resolve().as_uri()}?mode=ro&immutable=1")
            try:  # with one (a copy made after a crash), the two are read from a copy where a -shm can be made
                return _read_copy(p)  # (a review's was "unable to open database file")
            except (sqlite3.Error, OSError):
                raise first from None
    except sqlite3.Error as err:
        raise _bad_table(err) from None


def _read_copy(p: Path) -> tuple[list[tuple[int, ev.Event]], dict[int, tuple[Tile, ...]]]:
    """The table file ``p`` and its -wal read from copies in a temporary folder (its own folder cannot be written)."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="companion-read-") as folder:
        copy = Path(folder) / "table.sqlite"
        shutil.copyfile(p, copy)
        shutil.copyfile(f"{p}-wal", f"{copy}-wal")
        return _read_store(copy.as_uri())


def _read_store(uri: str) -> tuple[list[tuple[int, ev.Event]], dict[int, tuple[Tile, ...]]]:
    events: list[tuple[int, ev.Event]] = []
    private: dict[int, tuple[Tile, ...]] = {}
    db = sqlite3.connect(uri, uri=True)
    try:
        # as the app reads it (a review's replay read a newer version's file without a word, and blamed a gap on the
        # event after it, as a "line"): its version, then each stored event by its number
        if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone():
            row = db.execute("SELECT value FROM meta WHERE key = 'db_version'").fetchone()
            if row is not None and str(row[0]) != _DB_VERSION:
                raise ev.EventError(msg("ev_table_version", version=row[0], reads=_DB_VERSION))
        for seq, body in db.execute("SELECT seq, body FROM events ORDER BY seq"):
            if seq != len(events):
                raise ev.EventError(msg("ev_table_gap", seq=seq, prev=len(events) - 1) if events else
                                    msg("ev_table_start", seq=seq))
            try:
                events.append((seq + 1, ev.from_dict(loads_json(_body_text(body)))))
            except json.JSONDecodeError as e:
                raise _stored_at(ev.EventError(_not_json(e)), seq) from None
            except ev.EventError as e:
                raise _stored_at(e, seq) from None
        for seat, tiles, _deal in db.execute("SELECT seat, tiles, deal FROM private"):
            private[seat] = _kept_hand(seat, tiles)
    finally:
        db.close()
    return events, private


def _stored_at(e: ev.EventError, seq: int) -> ev.EventError:
    """``e`` naming the table file's stored event ``seq`` (as the app numbers them), not a line."""
    return ev.EventError(msg("ev_stored_at", seq=seq, zh=e.reason.zh, en=e.reason.en))


def _kept_hand(seat: object, tiles: object) -> tuple[Tile, ...]:
    """A private hand kept in a table file, read; one a damaged or hand-edited file holds (``zzz``, a fifth copy)
    is refused naming its seat (a review's replay of such a file ended in the notation's traceback)."""
    try:
        if not isinstance(tiles, str):
            got, got_zh = json_said(tiles, whole=True)  # (as the log's checks say a value: a review)
            raise ev.EventError(msg("ev_bad_private", seat=seat, detail=f"應為牌的寫法，收到 {got_zh}",
                                    detail_en=f"expected the tiles as text, got {got}"))
        return parse_tiles(tiles)
    except ValueError as e:
        if isinstance(e, ev.EventError):
            raise
        raise ev.EventError(msg("ev_bad_private", seat=seat, detail=getattr(e, "zh", "") or str(e),
                                detail_en=str(e))) from None


def _private_from(data: object) -> dict[int, tuple[Tile, ...]]:
    """The private hands of an export header: ``{"0": "123m…"}``."""
    if not isinstance(data, dict):
        got, got_zh = json_said(data, whole=True)
        raise ev.EventError(msg("ev_bad_header", detail=f"應為座位對手牌的對照，收到 {got_zh}",
                                detail_en=f"expected a map of seat to tiles, got {got}"))
    try:
        out = {int(s): parse_tiles(t) for s, t in data.items()}
    except (ValueError, TypeError) as e:
        raise ev.EventError(msg("ev_bad_header", detail=f"座位或手牌的寫法有誤：{getattr(e, 'zh', '') or e}",
                                detail_en=str(e))) from None
    if any(not 0 <= s < 4 for s in out):
        raise ev.EventError(msg("ev_bad_header", detail=f"座位必須是 0-3，收到 {sorted(out)}",
                                detail_en=f"a seat is 0-3, got {sorted(out)}"))
    return out


def _msg_json(m: Msg) -> dict[str, str]:
    return {"key": m.key, "zh": m.zh, "en": m.en}


def _question_json(q: Question) -> dict[str, Any]:
    return {"prompt": _msg_json(q.prompt), "evidence": [list(x) for x in q.evidence],
            "choices": [{"label": _msg_json(c.label), "event": ev.to_dict(c.event) if c.event else None}
                        for c in q.choices]}


def _question_from(d: dict[str, Any]) -> Question:
    return Question(Msg(**d["prompt"]),
                    tuple(Choice(Msg(**c["label"]), ev.from_dict(c["event"]) if c["event"] else None)
                          for c in d["choices"]),
                    tuple((str(a), str(b)) for a, b in d["evidence"]))
