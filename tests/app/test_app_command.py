"""`companion app` as a user starts it, and its refusals; the photo view's model on the bundled photo."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from companion.app.photo_model import (
    PhotoContext,
    PhotoFailed,
    PhotoPanel,
    ReadPhoto,
    demo_photo,
    read_photo_file,
    score_photo_file,
    score_read_photo,
)
from companion.app.server import TableToken
from companion.app.table_model import demo_log_path
from companion.cli import main
from companion.rules.profiles import load_profile
from companion.rules.scoring import score
from companion.rules.settlement import settle
from companion.rules.win import Win


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_app_serves_the_page_the_tiles_and_the_font(tmp_path: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "app", "--no-browser", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once the server listens
        assert f"http://localhost:{port}/" in line, (line, proc.stderr.read() if proc.poll() is not None else "")
        table = proc.stdout.readline()  # and where the live table is kept, so a mistyped --table shows
        assert table.startswith("companion app: 牌局檔 / table file: ") and "table.sqlite" in table, table
        base = f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(base, timeout=30) as r:
            page = r.read()
            assert r.status == 200 and b"flutter" in page.lower()
        assert b"Flet application." not in page and '<meta name="description" content="台灣十六張麻將小幫手 / Table ' \
            'companion for Taiwanese 16-tile mahjong">'.encode() in page
        with urllib.request.urlopen(base + "tiles/5p.png", timeout=30) as r:
            assert r.read()[:8] == b"\x89PNG\r\n\x1a\n"
        with urllib.request.urlopen(base + "fonts/DroidSansFallbackFull.ttf", timeout=30) as r:
            assert len(r.read()) > 1_000_000
    finally:
        _stop(proc)


def test_a_table_file_in_use_by_another_companion_is_said_at_the_start(tmp_path: Path) -> None:
    """A review started a second app on a table another one had open: it said "the file is there", and the reason
    it could not use it went only to an English log line."""
    from companion.game.service import TableService

    table = tmp_path / "T.sqlite"
    port = _free_port()
    with TableService(table):  # the other companion
        proc = subprocess.Popen([sys.executable, "-m", "companion", "app", "--no-browser", "--port", str(port),
                                 "--table", str(table)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert f"http://localhost:{port}/" in line, (line, proc.stderr.read() if proc.poll() is not None else "")
            said = proc.stdout.readline()
            assert "T.sqlite (無法使用：無法開啟牌局檔 T.sqlite：另一個小幫手視窗或指令正開著它" in said and \
                   "cannot be used: cannot open the table file T.sqlite: another companion window or command has it " \
                   "open" in said, said
        finally:
            _stop(proc)


def test_a_port_in_use_is_refused_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["app", "--no-browser", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"127.0.0.1:{port}" in err and "--port" in err and "換一個" in err


def test_a_bad_port_or_a_missing_log_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["app", "--no-browser", "--port", "70000"]) == 2
    assert "70000" in capsys.readouterr().err
    missing = tmp_path / "nope.jsonl"
    assert main(["app", str(missing), "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert "nope.jsonl" in err and "無法讀取" in err


def test_an_illegal_log_exits_1_naming_the_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = demo_log_path().read_text(encoding="utf-8").splitlines()
    seated = json.loads(lines[0])
    seated["players"] = ["A", "A", "B", "C"]  # two players of one name
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([json.dumps(seated), *lines[1:]]) + "\n", encoding="utf-8")
    assert main(["app", str(bad), "--no-browser"]) == 1
    err = capsys.readouterr().err
    assert "bad.jsonl" in err and "Seated" in err and "入座" in err


def test_the_bundled_photo_scores_as_the_hand_it_shows() -> None:
    path, context = demo_photo()
    panel = score_photo_file(path, context)
    assert isinstance(panel, PhotoPanel)
    truth = json.loads((path.parent / "win_hand.json").read_text(encoding="utf-8"))
    win = Win.from_dict({**truth, "profile": None})
    expected = score(win, load_profile(None))
    st = settle(expected, win, None)
    assert panel.hand_tai == expected.hand_tai and panel.win_tile == truth["win_tile"]
    assert [(w.zh, t) for w, t in panel.items] == [(i.zh, i.tai) for i in expected.items]
    assert len(panel.payments) == len(st.payments)
    assert panel.image[:2] == b"\xff\xd8"  # a JPEG the page can show


def test_a_photo_that_is_no_image_or_no_hand_fails_with_the_reason(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"not a photo")
    failed = score_photo_file(junk, {})
    assert isinstance(failed, PhotoFailed) and "junk.jpg" in failed.reason.en and "junk.jpg" in failed.reason.zh
    blank = tmp_path / "blank.png"
    Image.fromarray(np.full((480, 640, 3), 90, np.uint8)).save(blank)
    failed = score_photo_file(blank, {})
    assert isinstance(failed, PhotoFailed) and failed.reason.zh != failed.reason.en


def test_a_photo_the_reader_refuses_fails_naming_the_file_in_both_languages(tmp_path: Path) -> None:
    strip = tmp_path / "strip.png"
    Image.fromarray(np.full((3, 4000, 3), 200, np.uint8)).save(strip)
    failed = read_photo_file(strip, name="phone.png")
    assert isinstance(failed, PhotoFailed)
    assert "phone.png" in failed.reason.en and "phone.png" in failed.reason.zh
    assert str(tmp_path) not in failed.reason.en + failed.reason.zh  # the name the player knows, not our path


def test_the_form_context_round_trips_and_a_bad_one_is_refused_by_name() -> None:
    _path, context = demo_photo()
    form = PhotoContext.from_context(context)
    assert form.as_context() == {k: context[k] for k in form.as_context()}
    self_drawn = PhotoContext(win_type="self_draw", discarder="S").as_context()
    assert "discarder" not in self_drawn  # a discarder means nothing for a self-drawn win
    path, _ = demo_photo()
    read = read_photo_file(path)
    assert isinstance(read, ReadPhoto)
    failed = score_read_photo(read, PhotoContext(win_type="discard", discarder="E", seat_wind="E").as_context())
    assert isinstance(failed, PhotoFailed) and "discarder" in failed.reason.en


def _upload_folders(where: Path) -> set[str]:
    return {p.name for p in where.glob("companion-uploads-*")}


def test_a_server_on_the_network_lets_in_only_visitors_with_its_token(tmp_path: Path) -> None:
    # a temp folder of its own: another server on this machine (a second test run) makes and removes its own
    folders = _upload_folders(tmp_path)
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "app", "--no-browser", "--host", "0.0.0.0",
                             "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "TMPDIR": str(tmp_path)})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        token = line.split("?t=")[1].split()[0]
        assert len(token) >= 12
        base = f"http://127.0.0.1:{port}/"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(base, timeout=30)
        assert refused.value.code == 403
        with pytest.raises(urllib.error.HTTPError):
            wrong = token[:-1] + ("y" if token.endswith("x") else "x")  # one character off, never the token itself
            urllib.request.urlopen(base + "?t=" + wrong, timeout=30)
        with urllib.request.urlopen(base + "?t=" + token, timeout=30) as r:
            cookie = r.headers["set-cookie"].split(";")[0]
            assert r.status == 200 and token in cookie
        request = urllib.request.Request(base + "tiles/5p.png", headers={"Cookie": cookie})
        with urllib.request.urlopen(request, timeout=30) as r:
            assert r.status == 200
        assert _upload_folders(tmp_path) - folders  # the phones' upload folder exists while it serves
    finally:
        proc.terminate()  # SIGTERM, as a service manager stops it
        proc.wait(30)
    assert _upload_folders(tmp_path) == folders  # and is gone after


def test_host_all_addresses_takes_ipv4_too(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        pytest.skip("this machine has no IPv6")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "app", "--no-browser", "--host", "::",
                             "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        token = proc.stdout.readline().split("?t=")[1].split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/?t={token}", timeout=30) as r:
            assert r.status == 200
        with urllib.request.urlopen(f"http://[::1]:{port}/?t={token}", timeout=30) as r:
            assert r.status == 200
    finally:
        _stop(proc)


def test_the_token_closes_a_websocket_without_it() -> None:
    let_in: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        let_in.append(scope["type"])

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {}

    guard = TableToken(app, "secret-token", 8550)
    asyncio.run(guard({"type": "websocket", "query_string": b"", "headers": []}, receive, send))
    assert sent == [{"type": "websocket.close", "code": 4403}] and let_in == []
    other_port = [(b"cookie", b"companion_table_8551=secret-token")]
    asyncio.run(guard({"type": "websocket", "query_string": b"", "headers": other_port}, receive, send))
    assert let_in == []  # another table's cookie does not open this one
    messy = [(b"cookie", b'theme=dark mode; prefs={"a": 1}; companion_table_8550=secret-token')]
    asyncio.run(guard({"type": "websocket", "query_string": b"", "headers": messy}, receive, send))
    assert let_in == ["websocket"]  # other apps' odd cookies on the same host do not hide ours


def test_a_host_this_machine_does_not_have_is_refused_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["app", "--no-browser", "--host", "no-such-host.invalid"]) == 2
    err = capsys.readouterr().err
    assert "no-such-host.invalid" in err and "--host" in err and "這台電腦沒有這個位址" in err


def test_the_photo_is_scored_under_the_rules_and_stakes_the_form_picks() -> None:
    from companion.rules.settlement import Stakes

    path, context = demo_photo()
    read = read_photo_file(path)
    assert isinstance(read, ReadPhoto)
    ctx = PhotoContext.from_context(context).as_context()
    default = score_read_photo(read, ctx)
    house = score_read_photo(read, ctx, Stakes(50, 20), "zhaishenye")
    assert isinstance(default, PhotoPanel) and isinstance(house, PhotoPanel)
    dragons = {w.en: t for w, t in default.items}["Dragon pung"], {w.en: t for w, t in house.items}["Dragon pung"]
    assert dragons == (1, 2)  # 三元牌 is 2 a pung under zhaishenye (rules §5.3)
    # one payer, at the total's tai: the payment says its amount, the total the tai (said once)
    assert house.payments[0].en.endswith(f" {50 + 20 * house.capped_tai}") and f"{house.capped_tai} tai" in house.total.en


def test_the_example_hand_of_my_hand_is_a_hand() -> None:
    from companion.app.hand_model import HandPanel, analyse
    from companion.app.view_hand import EXAMPLE_HAND

    result = analyse(EXAMPLE_HAND)
    assert isinstance(result, HandPanel) and [w.tile for w in result.waits] == ["3m"]


def test_flets_environment_overrides_are_set_aside(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from companion.app.server import FLET_OVERRIDES, asgi_app
    from companion.app.table_model import GameReplay
    from companion.app.words import Words

    for name in FLET_OVERRIDES:
        monkeypatch.setenv(name, "1")
    asgi_app(GameReplay.demo(), Words("", ""), uploads=tmp_path)
    assert not any(name in os.environ for name in FLET_OVERRIDES)  # the app's own limit and key stand


def test_a_phone_away_for_an_evening_keeps_its_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flet keeps a page whose phone has gone quiet for an hour by default: a phone asleep through dinner came back
    without the seat it followed or the hand typed in My hand, unsaid (a review). The app asks for an evening."""
    import flet_web.fastapi

    from companion.app.server import asgi_app
    from companion.app.table_model import GameReplay
    from companion.app.words import Words

    asked: dict[str, Any] = {}
    real = flet_web.fastapi.app

    def recorded(*args: Any, **kwargs: Any) -> Any:
        asked.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(flet_web.fastapi, "app", recorded)
    asgi_app(GameReplay.demo(), Words("", ""))
    assert asked["session_timeout_seconds"] >= 8 * 3600


def _get(app: Any, path: str, query: bytes = b"", headers: list[tuple[bytes, bytes]] | None = None) -> tuple[int, bytes]:
    """One GET through an ASGI app: (status, body)."""
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    scope = {"type": "http", "method": "GET", "path": path, "query_string": query, "headers": headers or []}
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_the_live_log_downloads_only_with_the_tables_token(tmp_path: Path) -> None:
    from companion.app.live_model import EXPORT_PATH, LiveGame
    from companion.app.server import LiveExport
    from companion.game.service import read_jsonl

    passed: list[str] = []

    async def flet(scope: dict[str, Any], receive: Any, send: Any) -> None:  # the app behind
        passed.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    live = LiveGame(tmp_path / "table.sqlite")
    guarded = TableToken(LiveExport(flet, live), "secret-token", 8550)  # stacked as `serve` stacks them
    status, body = _get(guarded, EXPORT_PATH)
    assert status == 403 and passed == []
    status, body = _get(guarded, EXPORT_PATH, b"t=secret-token")
    assert status == 404 and "no live game" in body.decode()  # and no table file was made for asking
    assert not (tmp_path / "table.sqlite").exists()
    assert live.start(("甲", "乙", "丙", "丁"), "atawmj_2009", 30, 10) is None
    status, body = _get(guarded, EXPORT_PATH, headers=[(b"cookie", b"companion_table_8550=secret-token")])
    assert status == 200
    events, private = read_jsonl(body.splitlines())
    assert [e for _, e in events] == live.events() and private == {}
    _get(guarded, "/live", b"t=secret-token")
    assert passed == ["/live"]  # everything else goes on to the app
    live.close()


def test_a_page_that_leaves_while_flet_sends_is_disconnected_as_any_page_that_leaves() -> None:
    import asyncio

    from companion.app.server import ClosedTabs

    steps: list[str] = []

    async def flet(scope: dict[str, Any], receive: Any, send: Any) -> None:  # flet-web's handler, in short
        from starlette.websockets import WebSocket

        ws = WebSocket(scope, receive, send)
        ws.application_state = __import__("starlette.websockets").websockets.WebSocketState.CONNECTED
        await ws.send_bytes(b"page")  # the phone has gone: starlette would raise WebSocketDisconnect here
        await ws.send_bytes(b"more")
        steps.append("disconnect_session")  # what flet-web skipped when the send raised

    async def nothing() -> dict[str, Any]:
        return {}

    sent: list[dict[str, Any]] = []

    async def gone(message: dict[str, Any]) -> None:
        sent.append(message)
        raise OSError("client disconnected")

    asyncio.run(ClosedTabs(flet)({"type": "websocket", "path": "/ws", "headers": []}, nothing, gone))
    assert steps == ["disconnect_session"] and len(sent) == 1  # the second send is not tried on a dead socket


def test_a_socket_closed_before_its_page_registers_ends_its_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """A privacy review: a socket that closed before Flet's first message left flet-web's send loop waiting for good
    (only a registered session stops it), and Ctrl+C then never stopped the server. Its app is ended a moment after
    it has left; a page that was sent to (registered) is left to end as it does."""
    import asyncio

    from companion.app.server import ClosedTabs

    monkeypatch.setattr(ClosedTabs, "UNREGISTERED_GRACE", 0.2)
    ended: list[str] = []

    async def flet(scope: dict[str, Any], receive: Any, send: Any) -> None:  # flet-web's handler, in short
        await send({"type": "websocket.accept"})
        if scope["path"] == "/answered":
            await send({"type": "websocket.send", "bytes": b"page"})
        try:
            while (await receive())["type"] != "websocket.disconnect":  # flet-web's receive loop ends...
                pass
            await asyncio.sleep(3600)  # ...and its send loop waits on a queue nobody fills
        except asyncio.CancelledError:
            ended.append(scope["path"])
            raise

    async def disconnect() -> dict[str, Any]:
        return {"type": "websocket.disconnect", "code": 1000}

    said: list[dict[str, Any]] = [{"type": "websocket.receive", "bytes": b"\x00register"},
                                  {"type": "websocket.disconnect", "code": 1000}]

    async def registers_then_leaves() -> dict[str, Any]:  # nothing sent back yet: the server was busy
        return said.pop(0)

    async def sent(message: dict[str, Any]) -> None:
        return None

    async def both() -> None:
        unregistered = ClosedTabs(flet)({"type": "websocket", "path": "/ws", "headers": []}, disconnect, sent)
        await asyncio.wait_for(unregistered, timeout=60)  # ended, where it waited for good
        kept = [asyncio.ensure_future(ClosedTabs(flet)({"type": "websocket", "path": path, "headers": []}, phone, sent))
                for path, phone in (("/answered", disconnect), ("/registered", registers_then_leaves))]
        await asyncio.sleep(ClosedTabs.UNREGISTERED_GRACE * 5)
        assert not any(k.done() for k in kept)  # a page spoken to, or heard from, is not cut short
        for k in kept:
            k.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await k

    asyncio.run(both())
    assert ended == ["/ws", "/answered", "/registered"]  # the last two by the test's own cancel, passed on


def test_the_served_app_stops_at_once_after_a_socket_that_never_registered() -> None:
    """The same through flet-web itself (a test review: the test above runs a stand-in): a socket closed before its
    first message held the server's stop for good; now it stops as a server no phone opened does."""
    import threading
    import time

    import uvicorn
    import websockets.sync.client

    from companion.app.server import asgi_app, server_config
    from companion.app.table_model import DEMO_HANDS, GameReplay
    from companion.app.words import ui

    port = _free_port()
    config = server_config(asgi_app(GameReplay.demo(), ui("demo_note", hands=DEMO_HANDS)), "127.0.0.1", port)
    config.timeout_graceful_shutdown = None  # the socket's own end, not uvicorn's limit on the wait, stops it here
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive(), "the app's server stopped while starting"
        time.sleep(0.05)
    with websockets.sync.client.connect(f"ws://127.0.0.1:{port}/ws"):
        pass  # closed before any message: no page registered on it
    time.sleep(0.5)  # (the server has seen it go: the stop below is not raced against its arrival)
    server.should_exit = True
    thread.join(60)
    assert not thread.is_alive(), "the server did not stop"


def test_an_update_after_a_phone_left_is_dropped_not_raised() -> None:
    """A review saw two tracebacks in the serving terminal each time a phone left the page: Flet's update after the
    phone's last event went to a connection whose queue flet-web had already let go."""
    import asyncio

    from flet.messaging.protocol import Message, MessageAction
    from flet_web.fastapi.flet_app import FletApp

    from companion.app.server import quiet_after_disconnect

    quiet_after_disconnect()
    quiet_after_disconnect()  # (once per process: a second call wraps nothing again)
    conn = FletApp(None, None, lambda page: None, None)  # type: ignore[arg-type]
    message = Message(MessageAction.PATCH_CONTROL, {"id": 1})
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    conn._FletApp__send_queue = queue  # type: ignore[attr-defined]  # the phone connected
    conn.send_message(message)
    assert queue.qsize() == 1
    conn._FletApp__send_queue = None  # type: ignore[attr-defined]  # the phone has left
    conn.send_message(message)  # dropped, without an error
    assert queue.qsize() == 1


def test_the_live_ledger_downloads_as_csv_for_a_spreadsheet(tmp_path: Path) -> None:
    from companion.app.ledger_model import LEDGER_PATH
    from companion.app.live_model import LiveGame
    from companion.app.server import LiveExport

    async def flet(scope: dict[str, Any], receive: Any, send: Any) -> None:
        raise AssertionError("the ledger is the export's, not the app's")

    live = LiveGame(tmp_path / "table.sqlite")
    guarded = TableToken(LiveExport(flet, live), "secret-token", 8550)
    assert _get(guarded, LEDGER_PATH)[0] == 403
    assert _get(guarded, LEDGER_PATH, b"t=secret-token")[0] == 404  # no game yet, and no file made for asking
    assert live.start(("甲", "乙", "丙", "丁"), "atawmj_2009", 30, 10) is None
    status, body = _get(guarded, LEDGER_PATH, b"t=secret-token")
    assert status == 200 and body.startswith("\ufeff".encode())  # a spreadsheet reads the Chinese as UTF-8
    assert body.decode("utf-8-sig").splitlines()[0].endswith(
        ",付款 Payments,改正 Corrections,下一把 Next hand,骰子 Dice,門風 Seat winds," + ",".join(f"{p} 這把 this hand" for p in "甲乙丙丁") + ","
        + ",".join(f"{p} 累計 running" for p in "甲乙丙丁") + ",胡牌的牌 Winning hands")
    live.close()


def test_a_tabs_address_names_its_tab_with_the_tables_token_after_it() -> None:
    """A review: on a table served to the network, ``/live?t=TOKEN`` (the link a host sends the players) opened the
    Table tab's demo, as if the tab were named ``live?t=TOKEN``."""
    from companion.app.views import _tab_of

    assert _tab_of("/live?t=oHV4WzwHVpFq") == _tab_of("/live") == _tab_of("live/") == "live"
    assert _tab_of("/?t=x") == _tab_of("/") == _tab_of(None) == ""


def _stop(proc: subprocess.Popen[str]) -> None:
    """A server started for a test stopped, killed where a loaded machine keeps it past 30 s (no server left for a
    later test's port)."""
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(30)


def _first_token(port: int, table: Path, data: Path, *more: str) -> str:
    """The token `companion app --host 0.0.0.0` prints for ``table``, the server then stopped."""
    proc = subprocess.Popen([sys.executable, "-m", "companion", "app", "--no-browser", "--host", "0.0.0.0",
                             "--port", str(port), "--table", str(table), *more], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "COMPANION_DATA_DIR": str(data)})
    try:
        assert proc.stdout is not None
        token = proc.stdout.readline().split("?t=")[1].split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/?t={token}", timeout=30) as r:
            assert r.status == 200
    finally:
        _stop(proc)
    return token


def test_a_restarted_table_keeps_its_token_so_the_phones_come_back(tmp_path: Path) -> None:
    """A review restarted `companion app --host 0.0.0.0`: its token was made anew each run, so every phone that had
    joined (its cookie, its bookmarked address, its open page) was turned away with 403. The token is kept per
    table file in the data folder, owner-only; `--new-token` makes a new one, and another table has its own."""
    from companion.app.table_token import token_path

    data, table, port = tmp_path / "data", tmp_path / "friday.sqlite", _free_port()
    first = _first_token(port, table, data)
    assert _first_token(port, table, data) == first
    kept = token_path(table, data)
    assert kept.read_text(encoding="utf-8").strip() == first
    if os.name == "posix":
        assert kept.stat().st_mode & 0o077 == 0 and kept.parent.stat().st_mode & 0o077 == 0
    assert sorted(p.name for p in kept.parent.iterdir()) == [kept.name]  # written whole: nothing half made left
    fresh = _first_token(port, table, data, "--new-token")
    assert fresh != first and _first_token(port, table, data) == fresh
    assert _first_token(port, tmp_path / "other.sqlite", data) not in (first, fresh)


def test_a_token_that_could_not_be_kept_is_not_said_to_last(tmp_path: Path) -> None:
    """A change review: with the data folder unwritable the token lasts one run, but the app said the address stays."""
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x", encoding="utf-8")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "app", "--no-browser", "--host", "0.0.0.0",
                             "--port", str(port), "--table", str(tmp_path / "t.sqlite")], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env={**os.environ, "COMPANION_DATA_DIR": str(blocked)})
    try:
        assert proc.stdout is not None
        said = [proc.stdout.readline() for _ in range(2)]
        while "address" not in said[-1] and said[-1]:
            said.append(proc.stdout.readline())
    finally:
        _stop(proc)
    assert "the address changes when the app restarts" in said[-1] and "stays the same" not in "".join(said)


def test_a_kept_token_that_cannot_be_read_or_kept_gives_a_working_one(tmp_path: Path) -> None:
    from companion.app.table_token import table_token, token_path

    table = tmp_path / "t.sqlite"
    path = token_path(table, tmp_path)
    path.parent.mkdir()
    path.write_text("not a token!\n", encoding="utf-8")  # edited by hand
    token, kept = table_token(table, folder=tmp_path)
    assert not kept and token != "not a token!" and table_token(table, folder=tmp_path) == (token, True)
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x", encoding="utf-8")  # the data folder cannot hold the token: it serves this run
    token, kept = table_token(table, folder=blocked)
    assert not kept and len(token) >= 12 and blocked.read_text(encoding="utf-8") == "x"
    if os.name == "posix":  # one other users could read is not used as it is (a change review)
        shared, _ = table_token(table, folder=tmp_path)
        path.chmod(0o644)
        token, kept = table_token(table, folder=tmp_path)
        assert not kept and token != shared and path.stat().st_mode & 0o077 == 0
        assert table_token(table, folder=tmp_path) == (token, True)


def test_a_saved_log_goes_on_as_the_live_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A review: the refusals for a damaged or replaced table say to keep the game through Save log, but nothing
    turned a saved log back into a live table (`--table saved.jsonl` is refused). `--from-log` does, into a table
    file that holds no events yet; a log that cannot be read is refused naming its line, and leaves no table file."""
    import io

    from companion.app import server
    from companion.game.service import TableService
    from companion.game.simulator import simulate

    served: list[Path] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: served.append(a[6]))
    log, _ = simulate(4, 1)
    saved = tmp_path / "saved.jsonl"
    out = io.StringIO()
    with TableService(tmp_path / "old.sqlite") as old:
        assert old.submit_many(log).ok
        old.export_jsonl(out)
    saved.write_text(out.getvalue(), encoding="utf-8")
    table = tmp_path / "again.sqlite"
    command = ["app", "--no-browser", "--port", str(_free_port()), "--table", str(table), "--from-log", str(saved)]
    assert main(command) == 0 and served == [table]
    with TableService(table) as again:
        assert again.events() == log
    assert main(command) == 2 and len(served) == 1  # a table with a game already is not written over
    err = capsys.readouterr().err
    assert f"already holds {len(log)} events" in err and "give a new table file with --table" in err
    with TableService(table) as again:
        assert again.events() == log
    mixed = ["app", "--no-browser", "--port", str(_free_port()), "--table", str(tmp_path / "x.sqlite"),
             "--from-log", str(table)]  # the table file given as the log (a change review: "not UTF-8 text")
    assert main(mixed) == 2 and "is a table file, not a saved log: open it with --table" in capsys.readouterr().err
    lines = out.getvalue().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join([*lines[:30], lines[30][:15], *lines[31:]]) + "\n", encoding="utf-8")
    fresh = tmp_path / "fresh.sqlite"
    command = ["app", "--no-browser", "--port", str(_free_port()), "--table", str(fresh), "--from-log", str(cut)]
    assert main(command) == 1 and len(served) == 1
    err = capsys.readouterr().err
    assert "--from-log" in err and "line 31" in err and "第 31 行" in err and not fresh.exists()


def test_the_app_says_at_the_start_the_events_it_lets_in_under_older_rules_as_replay_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A change review: `companion replay` named the events of an old log that only today's rules refuse, while
    `companion app LOG` (its table replay) and `companion app --from-log LOG` (the import) let them in without a
    word. Both say at the start, in replay's words: how many, and the first by its line and today's refusal. A log
    with none says nothing of it."""
    from companion.app import server
    from tests.game.test_older_rules import old_events, old_lines

    served: list[Any] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: served.append(a))
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join(old_lines(old_events())) + "\n", encoding="utf-8")
    said_en = (f"{old}: this version refuses 2 events, replayed as kept under an earlier version's rules",
               "the first: line 1: illegal event Seated: the base or the amount per tai is too large")
    said_zh = (f"{old}：這個版本會拒絕其中 2 個事件", "第一個：第 1 行的入座不合法")
    for given in ([str(old)], ["--from-log", str(old)]):
        table = tmp_path / f"t{len(given)}.sqlite"
        assert main(["app", "--no-browser", "--port", str(_free_port()), "--table", str(table), *given]) == 0
        err = capsys.readouterr().err
        assert all(x in err for x in (*said_en, *said_zh)), (given, err)
        assert (served[-1][0].older is not None) == (given == [str(old)])  # the replay's, for the Table tab (the
        # demo game's with --from-log alone)
    clean = tmp_path / "clean.jsonl"
    clean.write_text("\n".join(old_lines(old_events(stakes_over_cap=False)[:-1])) + "\n", encoding="utf-8")
    for given in ([str(clean)], ["--from-log", str(clean)]):
        table = tmp_path / f"c{len(given)}.sqlite"
        assert main(["app", "--no-browser", "--port", str(_free_port()), "--table", str(table), *given]) == 0
        assert "this version refuses" not in capsys.readouterr().err, given
    assert len(served) == 4


def test_new_token_on_a_table_not_served_to_the_network_is_said_to_do_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A change review: `--new-token` without `--host 0.0.0.0` was taken without a word."""
    from companion.app import server

    monkeypatch.setattr(server, "serve", lambda *a, **k: a[5]("http://127.0.0.1:1/", None, None))
    assert main(["app", "--no-browser", "--table", str(tmp_path / "t.sqlite"), "--new-token"]) == 0
    assert "--new-token matters only for a table served to the network" in capsys.readouterr().out


def test_a_foreign_or_damaged_sqlite_file_is_refused_at_the_start_and_left_untouched(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A privacy review: another program's database (or a damaged one) given with --table was served, with a Live
    tab that refused every entry, and exited 0, where a file that is not SQLite at all is refused; given with
    --from-log it was called "a table file" and sent to --table, which then refused it."""
    import hashlib
    import sqlite3

    from companion.app import server

    served: list[Path] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: served.append(a[6]))
    foreign = tmp_path / "contacts.sqlite"
    with contextlib.closing(sqlite3.connect(foreign)) as db:
        db.execute("CREATE TABLE contacts (name TEXT)")
        db.commit()
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    for bad, why in ((foreign, "not a table file of this program (it holds the tables contacts)"),
                     (damaged, "cannot be used")):
        before = hashlib.sha256(bad.read_bytes()).hexdigest()
        assert main(["app", "--no-browser", "--port", str(_free_port()), "--table", str(bad)]) == 2
        err = capsys.readouterr().err
        assert f"--table {bad}: " in err and why in err and f"--table {bad}：" in err, err
        fresh = tmp_path / f"from-{bad.stem}.sqlite"
        assert main(["app", "--no-browser", "--port", str(_free_port()), "--table", str(fresh),
                     "--from-log", str(bad)]) == 2
        err = capsys.readouterr().err
        assert "neither a saved log nor a usable table file" in err and why in err and "is a table file" not in err
        assert hashlib.sha256(bad.read_bytes()).hexdigest() == before and not fresh.exists()
    assert served == [] and sorted(p.name for p in tmp_path.iterdir()) == ["contacts.sqlite", "damaged.sqlite"]


def test_the_served_app_sweeps_a_killed_servers_photos_and_holds_its_own_folder(tmp_path: Path) -> None:
    """A test review: the sweeps were tested, their use was not (without them a killed server's photos stayed for
    good). The app sweeps at its start, names its folder by its process and holds it, and removes it as it stops."""
    import signal
    import time

    from companion.app.upload import FOLDER_PREFIX, HELD

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    killed = tmp_path / f"{FOLDER_PREFIX}{int(gone.stdout)}-left1234"
    killed.mkdir()
    (killed / "photo.jpg").write_bytes(b"\xff\xd8\xff" + b"0" * 1000)
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "app", "--no-browser", "--port", str(port), "--table",
                             str(tmp_path / "t.sqlite")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "TMPDIR": str(tmp_path)})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once the server listens
        assert f"http://localhost:{port}/" in line, (line, proc.stderr.read() if proc.poll() is not None else "")
        assert not killed.exists()
        own = [d for d in tmp_path.iterdir() if d.name.startswith(f"{FOLDER_PREFIX}{proc.pid}-")]
        assert len(own) == 1 and (own[0] / HELD).is_file()
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl+C: the app removes its folder as it stops
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            _stop(proc)
    deadline = time.monotonic() + 10  # (a guard, not a measure)
    while own[0].exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not own[0].exists()


def test_a_file_where_the_table_files_folder_must_be_is_refused_at_the_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A change review: `--table X/t.sqlite` with `X` a file, or `COMPANION_DATA_DIR` naming a file, was served,
    and the first entry then said "[Errno 17] File exists: 'X'" in both languages, as a refusal of the move. The app
    refuses at the start, naming `X` as a file (or a link that loops) in both languages, as the commands do, and
    writes nothing."""
    from companion.app import server
    from tests.test_files import _loop

    served: list[Any] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: served.append(a))
    plain = tmp_path / "X"
    plain.write_text("kept\n", encoding="utf-8")
    loop = _loop(tmp_path)
    files = (f"{plain} is a file, not a folder", f"{plain} 是檔案，不是資料夾")
    loops = (f"{loop} is a link that loops back on itself, not a folder", f"{loop} 是繞回自己的符號連結，不是資料夾")
    for table, said in ((plain / "t.sqlite", files), (plain / "a" / "t.sqlite", files), (loop / "t.sqlite", loops)):
        for given in (["--table", str(table)], ["--table", str(table), "--from-log", str(demo_log_path())]):
            assert main(["app", "--no-browser", "--port", str(_free_port()), *given]) == 2, given
            err = capsys.readouterr().err
            assert all(x in err for x in said) and f"--table {table}: " in err and f"--table {table}：" in err, err
            assert "Errno" not in err and "File exists" not in err, err
    for data, said in ((plain, files), (loop, loops)):
        monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
        assert main(["app", "--no-browser", "--port", str(_free_port())]) == 2
        err = capsys.readouterr().err
        assert all(x in err for x in said) and "COMPANION_DATA_DIR" in err and f"the table file {data}" in err, err
    assert served == [] and plain.read_text(encoding="utf-8") == "kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["X", "loop1", "loop2"]
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))  # a folder not there yet: made at the first entry
    assert main(["app", "--no-browser", "--port", str(_free_port()), "--table", str(tmp_path / "new" / "t.sqlite")]) \
        == 0 and len(served) == 1


def test_a_table_file_that_is_a_looping_link_is_refused_at_the_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A change review: a table file that is a link looping back on itself (given with --table, or the default file
    in the data folder) does not "exist" to Path.exists, so it was taken as "none yet": the app served, and the
    start-up line and the Live tab then failed on every draw with "Symlink loop". It is refused at the start, naming
    the link in both languages, and nothing is served."""
    from companion.app import server

    served: list[Any] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: served.append(a))
    data = tmp_path / "data"
    data.mkdir()
    own = data / "table.sqlite"
    own.symlink_to("table.sqlite")  # the default file, a link to itself
    other = tmp_path / "loop.sqlite"
    other.symlink_to("loop2.sqlite")
    (tmp_path / "loop2.sqlite").symlink_to("loop.sqlite")  # a loop through two links
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    for given, table in (([], own), (["--table", str(other)], other), (["--table", str(own)], own)):
        assert main(["app", "--no-browser", "--port", str(_free_port()), *given]) == 2, given
        err = capsys.readouterr().err
        en, zh = f"{table} is a link that loops back on itself, not a table file", f"{table} 是繞回自己的符號連結，不是牌局檔"
        assert en in err and zh in err, err
        assert ("COMPANION_DATA_DIR" in err) == (not given), err
    assert served == [] and sorted(p.name for p in data.iterdir()) == ["table.sqlite"]


def test_a_token_whose_folder_is_a_file_names_that_file(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A change review: the token's folder was made by a bare mkdir, so a data folder that is a file was logged as
    "Not a directory" (English in both halves), naming neither that file nor why."""
    from companion.app.table_token import table_token

    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x", encoding="utf-8")
    with caplog.at_level("WARNING", logger="companion.app.table_token"):
        token, kept = table_token(tmp_path / "t.sqlite", folder=blocked)
    assert not kept and len(token) >= 12 and blocked.read_text(encoding="utf-8") == "x"
    said = caplog.text
    assert f"({blocked} is a file, not a folder)" in said and f"（{blocked} 是檔案，不是資料夾）" in said, said


def test_a_log_is_replayed_where_the_data_folder_is_a_file_and_live_entries_are_refused_by_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A change review: `companion app LOG` (a replay only) was refused at the start where COMPANION_DATA_DIR names a
    file, though a replay needs no data folder. It is served, saying in both languages that live entries cannot be
    saved and why; the Live tab's first entry is refused naming the file, in both languages too, never a traceback.
    Without LOG (the Live tab is what is asked for), or with --from-log (a table to write), it is still refused."""
    from companion.app import server
    from companion.app.live_model import LiveError, LiveGame, default_table_path
    from companion.app.words import ui

    served: list[Any] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: served.append(a))
    plain = tmp_path / "X"
    plain.write_text("kept\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(plain))
    log = str(demo_log_path())
    assert main(["app", "--no-browser", "--port", str(_free_port()), log]) == 0 and len(served) == 1
    err = capsys.readouterr().err
    assert f"{plain} is a file, not a folder" in err and f"{plain} 是檔案，不是資料夾" in err, err
    assert f"The replay of {log} is served, but live entries cannot be saved" in err and "記錄的牌局存不進去" in err, err
    table = default_table_path()
    ready = served[0][5]
    ready("http://localhost:1/", None, None)  # its line where the table file is kept says it too (not "none yet")
    out = capsys.readouterr().out
    assert "cannot be kept there: live entries cannot be saved" in out and "none yet" not in out, out
    assert served[0][6] == table  # the Live tab's file: its entries refused by name
    game = LiveGame(table, replaying=log)
    with pytest.raises(LiveError) as bad:
        game.start(["A", "B", "C", "D"], "atawmj_2009", 30, 10)
    assert bad.value.words == ui("live_no_folder", why="X 是檔案，不是資料夾", why_en="X is a file, not a folder",
                                 file="table.sqlite", name="X") + ui("live_replay_still", log="game.jsonl")
    game.close()
    for refused in ([], ["--from-log", log]):
        assert main(["app", "--no-browser", "--port", str(_free_port()), *refused]) == 2, refused
        assert f"{plain} is a file, not a folder" in capsys.readouterr().err
    assert len(served) == 1 and plain.read_text(encoding="utf-8") == "kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["X"]
    from tests.test_files import _loop

    loop = _loop(tmp_path)  # a data folder that loops: served too, and its start-up line said (resolve raised there)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(loop))
    assert main(["app", "--no-browser", "--port", str(_free_port()), log]) == 0 and len(served) == 2
    assert f"{loop} is a link that loops back on itself, not a folder" in capsys.readouterr().err
    served[1][5]("http://localhost:1/", None, None)
    assert "cannot be kept there: live entries cannot be saved" in capsys.readouterr().out
    game = LiveGame(default_table_path())  # its advice: a folder, or a link to one (not "again")
    with pytest.raises(LiveError) as bad:
        game.start(["A", "B", "C", "D"], "atawmj_2009", 30, 10)
    assert bad.value.words == ui("live_no_folder_loop", why=f"{loop.name} 是繞回自己的符號連結，不是資料夾",
                                 why_en=f"{loop.name} is a link that loops back on itself, not a folder",
                                 file="table.sqlite", name=loop.name), bad.value.words
    assert f"Make {loop.name} a folder (or a link to one)" in bad.value.words.en, bad.value.words
    game.close()
    file_said = ui("live_no_folder", why="X 是檔案，不是資料夾", why_en="X is a file, not a folder", file="t", name="X")
    assert "Move the file X away and make a folder there" in file_said.en and "folder again" not in file_said.en


def test_a_data_folder_that_is_a_link_to_nothing_is_refused_at_the_start_as_at_the_first_entry(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A change review: COMPANION_DATA_DIR naming a link whose target is not there (a synced folder not mounted)
    passed the start, and the first entry was then refused. No folder is made through such a link (make_folder makes
    none, as `mkdir -p` makes none): the start refuses it, naming the link and where it leads, in both languages, as
    the first entry does, and nothing is served or made."""
    from companion.app import server
    from companion.app.live_model import LiveError, LiveGame, default_table_path

    served: list[Any] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: served.append(a))
    target = tmp_path / "mounted" / "companion"
    data = tmp_path / "data"
    data.symlink_to(target)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    en, zh = (f"{data} is a link to {target}, which is not there: it is not a folder",
              f"{data} 是符號連結，指向的 {target} 不存在，不是資料夾")
    for given in ([], ["--table", str(data / "t.sqlite")]):
        assert main(["app", "--no-browser", "--port", str(_free_port()), *given]) == 2, given
        err = capsys.readouterr().err
        assert en in err and zh in err and ("COMPANION_DATA_DIR" in err) == (not given), err
    game = LiveGame(default_table_path())  # the first entry says the same, by the link's name (on a phone)
    with pytest.raises(LiveError) as bad:
        game.start(["A", "B", "C", "D"], "atawmj_2009", 30, 10)
    en, zh = ("data is a link to a place that is not there (a drive not plugged in?), not a folder",  # (where it
              "data 是符號連結，指向的地方不存在（磁碟沒接上？），不是資料夾")  # leads: the host's alone, a third review)
    assert en in bad.value.words.en and zh in bad.value.words.zh, bad.value.words
    assert str(tmp_path) not in bad.value.words.en + bad.value.words.zh, bad.value.words
    game.close()
    assert served == [] and not (tmp_path / "mounted").exists() and sorted(p.name for p in tmp_path.iterdir()) == \
        ["data"]


def test_the_start_up_line_names_the_table_file_as_given_not_where_a_link_leads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A change review: with COMPANION_DATA_DIR a link to ``nowhere`` and a LOG to replay, the start's refusal named
    ``…/dangling/table.sqlite`` and the line below it "table file: …/nowhere/table.sqlite", a path the user never
    gave (realpath followed the link). It names the table file as given, made absolute; the Live tab (told the LOG
    replayed) refuses by names, with what to do, and names the replay."""
    from companion.app import server
    from companion.app.live_model import LiveError, LiveGame, default_table_path
    from companion.app.words import ui

    served: list[tuple[Any, ...]] = []
    kw: list[dict[str, Any]] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: (served.append(a), kw.append(k)))
    dangling = tmp_path / "dangling"
    dangling.symlink_to("nowhere")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(dangling))
    log = str(demo_log_path())
    assert main(["app", "--no-browser", "--port", str(_free_port()), log]) == 0 and len(served) == 1
    assert f"{dangling}/table.sqlite" in capsys.readouterr().err
    served[0][5]("http://localhost:1/", None, None)
    out = capsys.readouterr().out
    assert f"table file: {dangling}/table.sqlite (" in out and "nowhere/table.sqlite" not in out, out
    assert kw[0]["replaying"] == log and served[0][6] == default_table_path()
    said = ui("live_no_folder_link", why="dangling 是符號連結，指向的地方不存在（磁碟沒接上？），不是資料夾",
              why_en="dangling is a link to a place that is not there (a drive not plugged in?), not a folder",
              file="table.sqlite",
              name="dangling")
    assert str(tmp_path) not in said.en and str(tmp_path) not in said.zh, said
    # (the host's stderr names --table; a phone gets no command-line words: a final review)
    assert "--" not in said.en + said.zh and "replay" not in said.en, said
    assert "the host can start the app again on a table file elsewhere" in said.en and "請主機改用別處的牌局檔" in said.zh
    # the advice for a link to nothing (a drive not mounted), not "make it a folder again" (a change review)
    assert "Plug in or mount the drive dangling leads to, or fix the link" in said.en and "again" not in \
        said.en.replace("start the app again", ""), said
    assert "請接上或掛載 dangling 指向的磁碟，或修正這個連結" in said.zh, said
    for replaying, tail in ((kw[0]["replaying"], ui("live_replay_still", log="game.jsonl")), (None, None)):
        game = LiveGame(served[0][6], replaying=replaying)  # (no LOG: the folder made so after the start)
        with pytest.raises(LiveError) as bad:
            game.start(["A", "B", "C", "D"], "atawmj_2009", 30, 10)
        assert bad.value.words == (said + tail if tail is not None else said), bad.value.words
        game.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling"]


def test_a_table_file_that_is_a_looping_link_still_serves_a_log_and_the_live_tab_refuses_it_by_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A change review: a table file that is a link looping back on itself is served with `companion app LOG` (it
    was refused before the replay was served where no table file can be kept). Right: a replay needs no table file.
    Pinned here: LOG is served, saying why live entries cannot be saved; without LOG it is still refused; the Live
    tab refuses every entry naming the link by its name, what to do, and the replay; the link is left as it was."""
    from companion.app import server
    from companion.app.live_model import LiveError, LiveGame
    from companion.app.words import ui

    served: list[tuple[Any, ...]] = []
    kw: list[dict[str, Any]] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: (served.append(a), kw.append(k)))
    table = tmp_path / "table.sqlite"
    table.symlink_to(table.name)
    (tmp_path / "other").mkdir()  # (the folder named as `other/..`: the refusal and the start-up line name it alike)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "other" / ".."))
    looping = f"{table} is a link that loops back on itself, not a table file"
    log = str(demo_log_path())
    assert main(["app", "--no-browser", "--port", str(_free_port()), log]) == 0 and len(served) == 1
    err = capsys.readouterr().err
    assert looping in err and f"The replay of {log} is served, but live entries cannot be saved" in err, err
    assert "other" not in err, err
    served[0][5]("http://localhost:1/", None, None)  # its start-up line: what is wrong, not "cannot be kept there"
    out = capsys.readouterr().out
    assert f"table file: {table} (是繞回自己的符號連結，記錄的牌局存不進去 / a link that loops back on itself: live " \
        "entries cannot be saved)" in out and "cannot be kept there" not in out, out
    assert main(["app", "--no-browser", "--port", str(_free_port())]) == 2 and len(served) == 1
    assert looping in capsys.readouterr().err
    for replaying, tail in ((log, ui("live_replay_still", log="game.jsonl")), (None, None)):
        game = LiveGame(served[0][6], replaying=replaying)
        assert not game.opened
        with pytest.raises(LiveError) as bad:
            game.start(["A", "B", "C", "D"], "atawmj_2009", 30, 10)
        said = ui("live_table_loops", file="table.sqlite")
        assert bad.value.words == (said + tail if tail is not None else said), bad.value.words
        assert "replay" not in said.en and str(tmp_path) not in said.en and str(tmp_path) not in said.zh, said
        game.close()
    assert kw[0]["replaying"] == log and table.is_symlink() and os.readlink(table) == table.name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other", "table.sqlite"]


@pytest.mark.parametrize("where", ["beside", "above", "home"])
def test_the_start_up_line_names_games_kept_earlier_and_how_to_open_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], where: str) -> None:
    """A change review: a game set aside while open (its data folder made a file) was kept in the folder above, and
    once the folder was a folder again `companion app` began a fresh game, saying nothing of the kept one. The
    start-up line names the copies kept beside the table file, or (named for the app) where the service would have put
    them, in both languages, and how to open one (--table); none, none said."""
    from companion.app import server

    served: list[tuple[Any, ...]] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: served.append(a))
    home, data = tmp_path / "home", tmp_path / "share" / "companion"
    home.mkdir()
    data.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    monkeypatch.chdir(tmp_path)
    assert main(["app", "--no-browser", "--port", str(_free_port())]) == 0
    served[-1][5]("http://localhost:1/", None, None)
    assert "kept earlier" not in capsys.readouterr().out
    kept = {"beside": data / "table.kept-1.sqlite", "above": data.parent / "companion-table.kept-1.sqlite",
            "home": home / "companion-table.kept-2.sqlite"}[where]
    _a_table_file(kept, data / "table.sqlite")
    _a_table_file(data.parent / "table.kept-9.sqlite")  # (another program's name in a shared folder: not ours)
    assert main(["app", "--no-browser", "--port", str(_free_port())]) == 0
    served[-1][5]("http://localhost:1/", None, None)
    out = capsys.readouterr().out
    assert f"之前另存的牌局在 {kept}，用 --table 檔名 開啟接著記錄；接著記錄了或不需要了，就把它移走或刪除，這行就不再出現 / " \
        f"a game kept earlier is in {kept}: start the app with --table naming it to go on with it; once it is " \
        "continued or not needed, move or delete it and this line stops" in out and "kept-9" not in out, out


def _a_table_file(path: Path, source: Path | None = None, entries: int = 1) -> None:
    """A table file at ``path`` holding a game's tables (a kept copy, as :func:`kept_copies` finds one) with
    ``entries`` entries, kept from the table ``source`` (None: not said, as in a copy kept before they said it)."""
    import sqlite3

    db = sqlite3.connect(path)
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    db.executemany("INSERT INTO events (body) VALUES ('{}')", [()] * entries)
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    if source is not None:
        db.execute("INSERT INTO meta VALUES ('kept_from', ?)", (os.path.abspath(source),))
    db.commit()
    db.close()


def test_games_kept_earlier_are_listed_only_when_they_are_this_tables_and_named_where_the_start_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A third review: the start-up scan listed ``companion-table.kept-notes.sqlite`` and an empty
    ``data/table.kept-old.sqlite``; ``game[1].sqlite``'s found ``game1.kept-1.sqlite`` and missed its own; three
    copies were said "a game kept earlier is in A, B, C … naming it", joined by ", " in Chinese; and a start refused
    while the data folder was still a file named no kept copy. Only ``kept-<digits>`` table files of this table are
    named, plural where there are more, joined by 、 in Chinese, at a refused start too."""
    from companion.app import server
    from companion.game.service import kept_copies

    served: list[tuple[Any, ...]] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: served.append(a))
    home, share = tmp_path / "home", tmp_path / "share"
    home.mkdir()
    share.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    odd = share / "game[1].sqlite"
    for name in ("game1.kept-1.sqlite", "game[1].kept-1.sqlite", "game[1].kept-2.sqlite"):
        _a_table_file(share / name)
    (share / "game[1].kept-3.sqlite").write_bytes(b"")  # (not a table: no game)
    (share / "game[1].kept-notes.sqlite").write_bytes(b"SQLite format 3\x00")
    assert kept_copies(odd) == [share / "game[1].kept-1.sqlite", share / "game[1].kept-2.sqlite"]
    assert sorted(p.name for p in share.iterdir()) == sorted(  # (nothing made beside them)
        ["game1.kept-1.sqlite", "game[1].kept-1.sqlite", "game[1].kept-2.sqlite", "game[1].kept-3.sqlite",
         "game[1].kept-notes.sqlite"])
    data = share / "companion"
    data.write_text("a file where the data folder must be")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    _a_table_file(share / "companion-table.kept-1.sqlite", data / "table.sqlite")
    _a_table_file(share / "companion-table.kept-notes.sqlite", data / "table.sqlite")
    _a_table_file(home / "companion-table.kept-2.sqlite", data / "table.sqlite")
    (share / "table.kept-old.sqlite").write_bytes(b"")
    assert main(["app", "--no-browser", "--port", str(_free_port())]) == 2 and served == []
    err = capsys.readouterr().err
    kept = (home / "companion-table.kept-2.sqlite", share / "companion-table.kept-1.sqlite")  # (by folder)
    assert f"games kept earlier are in {kept[0]}, {kept[1]}: start the app with --table naming one to go on with " \
        "it; once each is continued or not needed, move or delete it and this line stops" in err, err
    assert f"之前另存的牌局在 {kept[0]}、{kept[1]}，用 --table 檔名 開啟其中一個接著記錄" in err, err
    assert "notes" not in err and "kept-old" not in err, err


def test_the_start_up_line_leaves_out_other_tables_kept_games_and_says_an_empty_one_has_no_entries(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A fourth review: every table is ``table.sqlite``, so another data folder's ``companion-table.kept-3.sqlite``
    in the folder above was listed at this table's start; and a copy kept before any entry was listed as a game. Only
    copies kept from this table are listed (an older one beside it by its name), an empty one said "(no entries)"."""
    from companion.app import server

    served: list[tuple[Any, ...]] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: served.append(a))
    home, share = tmp_path / "home", tmp_path / "share"
    data = share / "other"
    home.mkdir()
    data.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    monkeypatch.chdir(tmp_path)
    _a_table_file(share / "companion-table.kept-3.sqlite", share / "data" / "table.sqlite")  # (another table's)
    _a_table_file(home / "companion-table.kept-1.sqlite", data / "table.sqlite", entries=0)
    _a_table_file(data / "table.kept-1.sqlite")  # (an older copy beside it: its own by name)
    assert main(["app", "--no-browser", "--port", str(_free_port())]) == 0
    served[-1][5]("http://localhost:1/", None, None)
    out = capsys.readouterr().out
    empty, older = home / "companion-table.kept-1.sqlite", data / "table.kept-1.sqlite"
    assert f"games kept earlier are in {empty} (no entries), {older}: start the app" in out, out
    assert f"之前另存的牌局在 {empty}（沒有紀錄）、{older}，用 --table" in out, out
    assert "kept-3" not in out, out
