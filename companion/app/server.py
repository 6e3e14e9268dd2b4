"""Serving the app in web mode: Flet's ASGI app under uvicorn, on a laptop at the table; phones join by URL.

Offline by design (``no_cdn``): the page needs nothing from the internet, and the CJK font ships in the package
(``assets/fonts``). The tile pictures and the font are served from the package's assets folder, found with
``importlib.resources`` (an absolute path: Flet resolves a relative one against the running script's folder).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import flet as ft

from companion.app.photo_model import (
    UPLOAD_MAX_BYTES,
    PhotoFailed,
    ReadPhoto,
    demo_photo,
    read_photo_bytes,
    read_photo_file,
)
from companion.app.table_model import GameReplay
from companion.app.views import FONT_FAMILY, AppConfig, CompanionApp
from companion.app.words import Words
from companion.vision.read import TileReader

__all__ = ["assets_dir", "make_main", "asgi_app", "server_config", "serve", "PhotoReader"]

log = logging.getLogger(__name__)
FONT_FILE = "fonts/DroidSansFallbackFull.ttf"
WS_MAX_BYTES = 2 * UPLOAD_MAX_BYTES


def assets_dir() -> Path:
    return Path(str(resources.files("companion") / "assets")).resolve()


class PhotoReader:
    """One tile reader for every session (the models loaded once), used by one photo at a time; and the bundled
    photo read once per process (about a second of work)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reader: TileReader | None = None
        self._demo: tuple[ReadPhoto | PhotoFailed, dict[str, Any]] | None = None

    def _tiles(self) -> TileReader:
        if self._reader is None:
            self._reader = TileReader()
        return self._reader

    def demo(self) -> tuple[ReadPhoto | PhotoFailed, dict[str, Any]]:
        with self._lock:
            if self._demo is None:
                path, context = demo_photo()
                self._demo = (read_photo_file(path, self._tiles()), context)
            return self._demo

    def upload(self, data: bytes, name: str) -> ReadPhoto | PhotoFailed:
        with self._lock:
            return read_photo_bytes(data, name, self._tiles())


def make_main(replay: GameReplay, note: Words, photos: PhotoReader, lang: str = "zh") -> Callable[[ft.Page], None]:
    """The page entry point: one :class:`CompanionApp` per browser session, on the shared (read-only) replay."""

    def main(page: ft.Page) -> None:
        page.fonts = {FONT_FAMILY: FONT_FILE}
        page.theme = ft.Theme(font_family=FONT_FAMILY, color_scheme_seed="#1f5f3f")
        CompanionApp(page, AppConfig(replay, note, photos.demo, photos.upload, lang)).mount()

    return main


def asgi_app(replay: GameReplay, note: Words, lang: str = "zh", photos: PhotoReader | None = None) -> Any:
    return ft.run(make_main(replay, note, photos or PhotoReader(), lang), assets_dir=str(assets_dir()),
                  no_cdn=True, export_asgi_app=True)


def server_config(app: Any, host: str, port: int) -> Any:
    """uvicorn's settings for the app (a ``uvicorn.Config``)."""
    import uvicorn

    # a phone's photo travels over the page's websocket: room for the largest upload and its framing
    return uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on", ws_max_size=WS_MAX_BYTES)


def serve(replay: GameReplay, note: Words, host: str, port: int, lang: str = "zh",
          on_ready: Callable[[str], None] | None = None) -> None:
    """Serve until interrupted; ``on_ready(url)`` is called once the server listens."""
    import uvicorn

    server = uvicorn.Server(server_config(asgi_app(replay, note, lang), host, port))
    if on_ready is not None:
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
        url = f"http://{shown}:{port}/"

        def wait_then_tell() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                on_ready(url)

        threading.Thread(target=wait_then_tell, daemon=True).start()
    server.run()
