"""Serving the app in web mode: Flet's ASGI app under uvicorn, on a laptop at the table; phones join by URL.

Offline by design (``no_cdn``): the page needs nothing from the internet, and the CJK font ships in the package
(``assets/fonts``). The tile pictures and the font are served from the package's assets folder, found with
``importlib.resources`` (an absolute path: Flet resolves a relative one against the running script's folder).
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import os
import secrets
import socket
import tempfile
import threading
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

import flet as ft

from companion.app import lost_taps, upload

if TYPE_CHECKING:
    import numpy as np
from companion.app.compress import GzipFiles
from companion.app.ledger_model import LEDGER_PATH, ledger_csv
from companion.app.live_model import EXPORT_PATH, LiveError, LiveGame
from companion.app.page_notice import PageNotice
from companion.app.photo_model import (
    UPLOAD_MAX_BYTES,
    PhotoFailed,
    ReadPhoto,
    demo_photo,
    read_photo_file,
)
from companion.app.table_model import GameReplay
from companion.app.table_token import table_token
from companion.app.tileset_model import (
    SHEET_PATHS,
    SheetDraft,
    SheetFailed,
    SheetPage,
    read_sheet_photo,
    sheet_pdf,
)
from companion.app.view_photo import PhotoSource
from companion.app.view_settings import TileSetSource
from companion.app.views import FONT_FAMILY, AppConfig, CompanionApp
from companion.app.words import Words
from companion.tiles import Tile
from companion.vision import calibration
from companion.vision.calibration import CalibrationError, DamagedCalibration
from companion.vision.detect import TileDetector
from companion.vision.read import TileReader
from companion.vision.sheet import set_likeness

__all__ = ["assets_dir", "make_main", "asgi_app", "server_config", "serve", "PhotoReader", "TableToken", "LiveExport", "SheetDownload", "ClosedTabs",
           "EXPORT_PATH"]

log = logging.getLogger(__name__)
FONT_FILE = "fonts/DroidSansFallbackFull.ttf"
FLET_OVERRIDES = ("FLET_UPLOAD_DIR", "FLET_MAX_UPLOAD_SIZE", "FLET_SECRET_KEY", "FLET_ASSETS_DIR", "FLET_SESSION_TIMEOUT")


def assets_dir() -> Path:
    return Path(str(resources.files("companion") / "assets")).resolve()


class PhotoReader:
    """The tile readers every session shares (the models loaded once), used by one photo at a time: a player's photo
    is read with the selected calibrated set (followed when the Settings tab or ``companion calibrate`` changes it),
    the bundled photo and the calibration sheet's check with the trained model alone. The bundled photo is read once
    per process (about a second of work)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # one photo read at a time
        # a set fitted, or the plain reader loaded, under a lock of its own: the bundled photo and the sheet's pages
        # are read while a new set is fitted, which took minutes on a loaded laptop (a flakiness hunt saw every
        # phone's photo wait on it); a player's photo waits for the set it is to be read with
        self._fit_lock = threading.Lock()
        self._plain_lock = threading.Lock()  # the plain reader loaded once (taken last: under either lock above)
        self._reader: TileReader | None = None  # no calibration
        self._calibrated: tuple[tuple[str, int, int], TileReader] | None = None  # (set, its file's stamp), reader
        self._sheet: TileDetector | None = None
        self._demo: tuple[ReadPhoto | PhotoFailed, dict[str, Any]] | None = None

    def _plain(self) -> TileReader:
        with self._plain_lock:
            if self._reader is None:
                self._reader = TileReader()
            return self._reader

    def _tiles(self) -> tuple[TileReader, str | None, str | None, bool]:
        """The reader for a player's photo, the set it is calibrated with, the selected set left out and whether it
        was left out as unreadable now rather than damaged: a set whose file cannot be used is logged and left out,
        and the photo says so (the Settings tab says why; a calibration review's photo was read plain, unsaid, while
        the CLI refused; a change review's, unreadable for a permission, was called damaged)."""
        name = calibration.selected()
        if name is None:
            return self._plain(), None, None, False
        with self._fit_lock:
            try:
                st = (calibration.calibration_dir() / f"{name}.npz").stat()
                key = (name, st.st_mtime_ns, st.st_size)
                held = self._calibrated
                if held is None or held[0] != key:
                    self._calibrated = None  # the old one goes before the new one is fitted
                    held = self._calibrated = (key, TileReader(calibration=calibration.load(name)))
                return held[1], name, None, False
            except (OSError, CalibrationError) as bad:
                log.warning("tile set %r not used: %s", name, bad)
                return self._plain(), None, name, not isinstance(bad, DamagedCalibration)

    def demo(self) -> tuple[ReadPhoto | PhotoFailed, dict[str, Any]]:
        with self._lock:
            if self._demo is None:
                path, context = demo_photo()
                self._demo = (read_photo_file(path, self._plain()), context)
            return self._demo

    def read_file(self, path: Path, name: str) -> ReadPhoto | PhotoFailed:
        reader, tile_set, damaged, unreadable = self._tiles()  # (fitted outside the read's lock)
        with self._lock:
            return read_photo_file(path, reader, name, tile_set, damaged, unreadable)

    def read_sheet(self, path: Path, name: str) -> SheetPage | SheetFailed:
        """A photo of a page of the calibration sheet, as ``companion calibrate photo`` reads it."""
        with self._lock:
            if self._sheet is None:
                self._sheet = TileDetector(threads=2, backs=False)
            return read_sheet_photo(path, name, self._sheet, self._plain().classifier)

    def set_likeness(self, held: Sequence[tuple[Tile, np.ndarray]], new: Sequence[tuple[Tile, np.ndarray]]
                     ) -> float | None:
        """:func:`~companion.vision.sheet.set_likeness` by the trained model (a page of another set, a saved set)."""
        with self._lock:
            return set_likeness(held, new, self._plain().classifier)

    def follow_selection(self) -> None:
        """Fit the selected set now (a new set's first fit takes a while) rather than at the next photo."""
        self._tiles()


def make_main(replay: GameReplay, note: Words, photos: PhotoSource, lang: str = "zh",
              live: LiveGame | None = None, tile_sets: TileSetSource | None = None) -> Callable[[ft.Page], None]:
    """The page entry point: one :class:`CompanionApp` per browser session, on the shared (read-only) replay and the
    shared live table."""

    def main(page: ft.Page) -> None:
        page.fonts = {FONT_FAMILY: FONT_FILE}
        page.theme = ft.Theme(font_family=FONT_FAMILY, color_scheme_seed="#1f5f3f")
        CompanionApp(page, AppConfig(replay, note, photos, lang, live, tile_sets)).mount()

    return main


SESSION_KEPT_S = 12 * 3600
"""How long a phone away from the page (asleep through dinner, its browser in the background) keeps its page as it
left it, the seat it follows and the hand typed in My hand: an evening. Flet's default, an hour, dropped both unsaid
(a review of a long evening); a page that comes back later opens afresh."""
APP_DESCRIPTION = "台灣十六張麻將小幫手 / Table companion for Taiwanese 16-tile mahjong"
"""The page's description (search results, a link shared to a chat, a screen reader's summary): Flet's says
"Flet application."."""


def asgi_app(replay: GameReplay, note: Words, lang: str = "zh", photos: PhotoReader | None = None,
             uploads: Path | None = None, live: LiveGame | None = None) -> Any:
    """The app as an ASGI application. ``uploads``: the folder phones' photos land in (made and removed by the
    caller); None takes no uploads. ``live``: the table the Live tab enters a real game into (None: no such tab). Uploads are signed with a key made for this process and limited to
    :data:`UPLOAD_MAX_BYTES`."""
    from flet_web.fastapi import app as flet_fastapi_app

    lost_taps.install()  # a tap on a screen that has just changed is said, not dropped
    quiet_after_disconnect()
    for name in FLET_OVERRIDES:  # Flet would let these override the settings below, request by request
        if os.environ.pop(name, None) is not None:
            log.warning("%s is ignored: the app sets its own upload folder, size limit, signing key and page "
                        "lifetime", name)
    reader = photos or PhotoReader()
    source = PhotoSource(reader.demo, reader.read_file, uploads)
    sets = TileSetSource(reader.read_sheet, reader.follow_selection, uploads, SHEET_PATHS,
                         SheetDraft.stored(reader.set_likeness))
    app = flet_fastapi_app(make_main(replay, note, source, lang, live, sets), assets_dir=str(assets_dir()), no_cdn=True,
                           app_name="companion", app_description=APP_DESCRIPTION, upload_dir=str(uploads) if uploads else None,
                           upload_endpoint_path="upload" if uploads else None,
                           max_upload_size=UPLOAD_MAX_BYTES, secret_key=secrets.token_urlsafe(32),
                           session_timeout_seconds=SESSION_KEPT_S)
    app = SheetDownload(ClosedTabs(PageNotice(app)))
    return GzipFiles(LiveExport(app, live) if live is not None else app)  # the page's 19 MB sent gzipped


_SEND_QUEUE = "_FletApp__send_queue"  # flet-web's queue to the phone; None once the phone's socket has closed


def quiet_after_disconnect() -> None:
    """A phone that leaves the page sends a last event (the app going to the background); the update Flet makes
    after it is sent to a connection that has gone, and flet-web's ``send_message``, unlike its data frames, does
    not check: two tracebacks in the terminal serving the table each time a phone left (a review). Such a message
    is dropped here, as flet-web drops a data frame to a phone that has gone (once per process)."""
    from flet_web.fastapi.flet_app import FletApp

    send = FletApp.send_message
    if getattr(send, "_quiet_after_disconnect", False):
        return

    def send_message(self: FletApp, message: Any) -> None:
        if hasattr(self, _SEND_QUEUE) and getattr(self, _SEND_QUEUE) is None:
            log.debug("a message to a phone that has left: dropped (%s)", getattr(message, "action", "?"))
            return
        send(self, message)

    send_message._quiet_after_disconnect = True  # type: ignore[attr-defined]
    FletApp.send_message = send_message


class ClosedTabs:
    """A phone that closes its tab, reloads it or sleeps while the page is being sent ends Flet's socket under it.
    flet-web's send loop then raised ``WebSocketDisconnect``: uvicorn printed a 60-line traceback in the terminal of
    the laptop serving the table, and flet-web skipped its own disconnect (the page's ``on_disconnect`` never ran, so
    its listeners stayed attached and the session never expired). A send to a socket that has gone is dropped here
    instead (logged at debug level): the send loop goes on to its end and Flet disconnects the session as for any
    page that leaves.

    A socket that closes before its page registers (a script, a phone whose first message was lost) left flet-web
    waiting on its send loop for good, since only a registered session stops it: each such socket kept a task, and
    Ctrl+C then never stopped the server, which kept the table file locked (a privacy review). Such a socket's app is
    ended here once it has left without a word either way, a moment after, when it has not ended by itself."""

    UNREGISTERED_GRACE = 1.0
    """Seconds a socket that left without a word either way (nothing heard from the phone, so no page registered on
    it, and nothing sent) is given to end by itself before it is ended. A page that registered (its first message
    heard) is never cut short, so flet-web always disconnects its session (a change review: judged by "nothing sent"
    alone, a page that registered as it left could be cut short on a busy server)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        import asyncio

        gone = False
        spoke = False  # anything sent to the phone: flet-web sends nothing before the page registers
        heard = False  # anything heard from it: its first message registers its page
        left = asyncio.Event()

        async def to_the_phone(message: dict[str, Any]) -> None:
            nonlocal gone, spoke
            if gone:
                return
            spoke = spoke or message.get("type") == "websocket.send"
            try:
                await send(message)
            except OSError as bad:  # uvicorn's ClientDisconnected: the phone has gone
                gone = True
                log.debug("a page left while it was being sent (%s)", bad)

        async def from_the_phone() -> dict[str, Any]:
            nonlocal heard
            message: dict[str, Any] = await receive()
            heard = heard or message.get("type") == "websocket.receive"
            if message.get("type") == "websocket.disconnect" and not (spoke or heard):
                left.set()
            return message

        app = asyncio.ensure_future(self.app(scope, from_the_phone, to_the_phone))
        leaving = asyncio.ensure_future(left.wait())
        try:
            await asyncio.wait({app, leaving}, return_when=asyncio.FIRST_COMPLETED)
            if not app.done():
                done, _ = await asyncio.wait({app}, timeout=self.UNREGISTERED_GRACE)
                if not done:
                    log.debug("a socket closed before its page registered: its app is ended")
                    app.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await app
                    return
            await app
        finally:
            leaving.cancel()
            if not app.done():  # this call itself cancelled (the server stopping): the app with it
                app.cancel()


class SheetDownload:
    """``GET /calibration/sheet-a4.pdf`` (or ``sheet-letter.pdf``): the printable calibration sheet, drawn on the
    first request (under a second) and kept. Everything else goes on to the app."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._paper = {path: paper for paper, path in SHEET_PATHS.items()}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        paper = self._paper.get(scope.get("path", "")) if scope["type"] == "http" else None
        if paper is None:
            await self.app(scope, receive, send)
            return
        import asyncio

        body = await asyncio.to_thread(sheet_pdf, paper)
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"application/pdf"), (b"content-length", str(len(body)).encode()),
            (b"content-disposition", f'attachment; filename="mahjong-calibration-{paper}.pdf"'.encode())]})
        await send({"type": "http.response.body", "body": body})


class LiveExport:
    """``GET /export/table.jsonl``: the live game as JSON lines (the table service's export, hands left out), a
    download for the players to keep; ``companion replay`` and ``companion app`` read it. ``GET /export/ledger.csv``:
    its ledger for a spreadsheet. Everything else goes on
    to the app (behind the table's token where there is one: this wraps inside it)."""

    def __init__(self, app: Any, live: LiveGame) -> None:
        self.app, self.live = app, live

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path") if scope["type"] == "http" else None
        if path not in (EXPORT_PATH, LEDGER_PATH):
            await self.app(scope, receive, send)
            return
        import io

        plain = b"text/plain; charset=utf-8"
        suffix = ".jsonl" if path == EXPORT_PATH else "-ledger.csv"
        if not self.live.opened and not self.live.path.exists():
            body, status, kind = "no live game yet / 還沒有記錄牌局\n".encode(), 404, plain
        else:
            out = io.StringIO()
            try:
                if path == EXPORT_PATH:
                    self.live.service.export_jsonl(out)
                    body, status, kind = out.getvalue().encode(), 200, b"application/x-ndjson; charset=utf-8"
                else:  # with a byte-order mark: a spreadsheet then reads the Chinese as UTF-8
                    body = ledger_csv(self.live.state).encode("utf-8-sig")
                    status, kind = 200, b"text/csv; charset=utf-8"
            except LiveError as bad:  # its file is held by another companion
                body, status, kind = f"{bad.words.en} / {bad.words.zh}\n".encode(), 409, plain
        name = f"{self.live.path.stem}{suffix}"
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", kind), (b"content-length", str(len(body)).encode()),
            (b"content-disposition", f'attachment; filename="{name}"'.encode()), (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": body})


def _cookies(headers: list[tuple[bytes, bytes]]) -> dict[str, str]:
    """Every ``name=value`` of the request's cookies. Split by hand, leniently: another app on the same host may set
    cookies the standard library's parser stops at (a space, JSON), which would hide ours."""
    out: dict[str, str] = {}
    for name, value in headers:
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, sep, val = part.strip().partition("=")
                if sep:
                    out.setdefault(key, val)
    return out


class TableToken:
    """ASGI middleware that lets in only the table's own visitors: a page opened with ``?t=TOKEN`` (the address the
    app prints) gets a cookie, and every later request, upload and websocket must carry it. For a server reachable
    from the network (``--host 0.0.0.0``): anyone else on it gets 403. The cookie is named after the port, since
    browsers share cookies between the ports of one host (two tables on one laptop keep their own)."""

    def __init__(self, app: Any, token: str, port: int) -> None:
        self.app, self.token, self.cookie = app, token, f"companion_table_{port}"

    def _holds(self, value: str | None) -> bool:
        return value is not None and hmac.compare_digest(value.encode(), self.token.encode())

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("t", [None])[0]
        cookie = _cookies(scope.get("headers", [])).get(self.cookie)
        if not (self._holds(query) or self._holds(cookie)):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4403})
                return
            body = "這張桌子要用 companion app 印出的網址（含 ?t=…）開啟 / Open this table with the address companion " \
                   "app printed (with ?t=…)".encode()
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
            await send({"type": "http.response.body", "body": body})
            return
        if scope["type"] == "http" and self._holds(query) and not self._holds(cookie):
            jar = f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict".encode()

            async def with_cookie(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.start":
                    message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", jar)]}
                await send(message)

            await self.app(scope, receive, with_cookie)
            return
        await self.app(scope, receive, send)


class OnShutdown:
    """ASGI middleware that runs ``cleanup`` when the server shuts down (its lifespan's shutdown): uvicorn ends a
    process stopped by SIGTERM right after, so a ``finally`` around ``run`` would not run."""

    def __init__(self, app: Any, cleanup: Callable[[], None]) -> None:
        self.app, self.cleanup = app, cleanup

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def watched() -> Any:
            message = await receive()
            if message["type"] == "lifespan.shutdown":
                self.cleanup()
            return message

        await self.app(scope, watched, send)


SHUTDOWN_SECONDS = 5
"""How long Ctrl+C waits for the open connections before it ends them: a socket closed before it registered left
Flet's send loop waiting on its queue, and Ctrl+C then never stopped the server, which kept the table file locked and
its upload folder (a privacy review)."""


def server_config(app: Any, host: str, port: int) -> Any:
    """uvicorn's settings for the app (a ``uvicorn.Config``)."""
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on",
                          timeout_graceful_shutdown=SHUTDOWN_SECONDS)


LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _dual_stack(port: int) -> socket.socket:
    """A socket on every IPv6 and IPv4 address (``--host ::``): asyncio would make one for IPv6 only."""
    sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    sock.bind(("::", port))
    return sock


def serve(replay: GameReplay, note: Words, host: str, port: int, lang: str = "zh",
          on_ready: Callable[[str, str | None, Words | None], None] | None = None, table: Path | None = None,
          new_token: bool = False, replaying: str | None = None) -> None:
    """Serve until interrupted; ``on_ready(url, token, why)`` is called once the server listens, ``why`` saying why an
    existing table file cannot be used (None: it can, or there is none yet). A server reachable from
    the network (a host other than loopback) lets in only visitors with its token (:class:`TableToken`). ``table``:
    the live table's file (opened when the Live tab is first used, or at once when the file exists; None: no Live tab).
    The token is the table file's, kept from run to run (:func:`~companion.app.table_token.table_token`), so the phones
    that joined come back after a restart; ``new_token`` makes a new one. ``replaying``: the LOG replayed (None: the
    demo), named by the Live tab where no live entry can be saved."""
    import uvicorn

    upload.sweep_left_over_folders()  # a killed server's photos (its folder was never removed: a privacy review)
    uploads = tempfile.TemporaryDirectory(prefix=f"{upload.FOLDER_PREFIX}{os.getpid()}-")
    held = upload.hold(Path(uploads.name))  # (another server's sweep leaves it alone while this one runs)
    live = LiveGame(table, replaying=replaying) if table is not None else None

    def cleanup() -> None:
        if held is not None:
            held.close()
        uploads.cleanup()
        if live is not None:
            live.close()

    app: Any = OnShutdown(asgi_app(replay, note, lang, uploads=Path(uploads.name), live=live), cleanup)
    token = None if host in LOOPBACK else table_token(table, new=new_token)[0]
    if token is not None:
        app = TableToken(app, token, port)
    server = uvicorn.Server(server_config(app, host, port))
    if on_ready is not None:
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{port}/" + (f"?t={token}" if token else "")

        def wait_then_tell() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                why = None
                if live is not None and table is not None and table.exists():
                    try:  # opened now, as the Ledger would: a table in use by another companion or unusable is said
                        live.open()  # where the host looks (it said "the file is there": a review)
                    except LiveError as bad:
                        why = bad.words
                on_ready(url, token, why)

        threading.Thread(target=wait_then_tell, daemon=True).start()
    try:
        server.run(sockets=[_dual_stack(port)] if host == "::" else None)
    finally:
        cleanup()
