"""The Ledger tab's CSV given where a game log is wanted (the other download beside Save log): a review carried a
game night to a fresh data folder with ``companion app --from-log table-ledger.csv`` and was told "line 1: not JSON
at column 1". It is said to be the ledger, and which file to give instead, in both languages."""

from __future__ import annotations

import dataclasses
import socket
from pathlib import Path

import pytest

from companion.app.ledger_model import ledger_csv
from companion.cli import main
from companion.game import events as ev
from companion.game.service import TableService, read_jsonl
from companion.game.simulator import simulate

SAID_EN = "this is the ledger (the CSV the Ledger tab's Download the ledger saved), not a game log"
SAID_ZH = "這是帳本（「帳本」頁「下載帳本」存的 CSV），不是牌局紀錄"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _ledgers(tmp_path: Path) -> list[Path]:
    """The ledger CSV as the app serves it (with a byte-order mark) of one session, and of two (players seated
    again: the CSV then opens with the first session's name, not the headings)."""
    log, _ = simulate(4, 1)
    seated = next(e for e in log if isinstance(e, ev.Seated))
    files = []
    for k, events in enumerate((log, [*log, dataclasses.replace(seated)]), 1):
        with TableService(tmp_path / f"t{k}.sqlite") as table:
            assert table.submit_many(events).ok
            path = tmp_path / f"ledger{k}.csv"
            path.write_bytes(ledger_csv(table.state).encode("utf-8-sig"))
        files.append(path)
    assert files[1].read_text(encoding="utf-8-sig").startswith("第 1 將 Session 1")
    return files


def test_the_ledger_csv_read_as_a_log_is_said_to_be_the_ledger(tmp_path: Path) -> None:
    for path in _ledgers(tmp_path):
        for mode in ("rb", "r"):
            with open(path, mode, encoding=None if mode == "rb" else "utf-8") as f, \
                    pytest.raises(ev.EventError) as info:
                read_jsonl(f)
            assert SAID_EN in info.value.reason.en and "Save log" in info.value.reason.en
            assert SAID_ZH in info.value.reason.zh and "下載紀錄" in info.value.reason.zh


def test_a_log_whose_first_line_is_not_json_is_said_as_before(tmp_path: Path) -> None:
    path = tmp_path / "notes.csv"
    path.write_text("Hand,Result\n", encoding="utf-8")
    with open(path, "rb") as f, pytest.raises(ev.EventError) as info:
        read_jsonl(f)
    assert "not JSON" in info.value.reason.en and "ledger" not in info.value.reason.en


def test_app_from_log_and_replay_say_the_ledger_csv_is_not_a_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from companion.app import server

    served: list[object] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: served.append(a))
    csv = _ledgers(tmp_path)[0]
    table = tmp_path / "fresh.sqlite"
    assert main(["app", "--no-browser", "--port", str(_free_port()), "--table", str(table), "--from-log", str(csv)]) == 1
    err = capsys.readouterr().err
    assert SAID_EN in err and SAID_ZH in err and "not JSON" not in err
    assert not served and not table.exists()
    assert main(["replay", str(csv)]) != 0
    err = capsys.readouterr().err
    assert SAID_EN in err and SAID_ZH in err
