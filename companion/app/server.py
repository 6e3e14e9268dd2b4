"""Serving the app in web mode: Flet's ASGI app under uvicorn, on a laptop at the table; phones join by URL.

Offline by design (``no_cdn``): the page needs nothing from the internet, and the CJK font ships in the package
(``assets/fonts``). The tile pictures and the font are served from the package's assets folder, found with
``importlib.resources`` (an absolute path: Flet resolves a relative one against the running script's folder).
"""

from __future__ import annotations

import logging
import secrets
import tempfile
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
    read_photo_file,
)
from companion.app.table_model import GameReplay
from companion.app.view_photo import PhotoSource
from companion.app.views import FONT_FAMILY, AppConfig, CompanionApp
from companion.app.words import Words
from companion.vision.read import TileReader

__all__ = ["assets_dir", "make_main", "asgi_app", "server_config", "serve", "PhotoReader"]

log = logging.getLogger(__name__)
FONT_FILE = "fonts/DroidSansFallbackFull.ttf"


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

    def read_file(self, path: Path, name: str) -> ReadPhoto | PhotoFailed:
        with self._lock:
            return read_photo_file(path, self._tiles(), name)


def make_main(replay: GameReplay, note: Words, photos: PhotoSource, lang: str = "zh") -> Callable[[ft.Page], None]:
    """The page entry point: one :class:`CompanionApp` per browser session, on the shared (read-only) replay."""

    def main(page: ft.Page) -> None:
        page.fonts = {FONT_FAMILY: FONT_FILE}
        page.theme = ft.Theme(font_family=FONT_FAMILY, color_scheme_seed="#1f5f3f")
        CompanionApp(page, AppConfig(replay, note, photos, lang)).mount()

    return main


def asgi_app(replay: GameReplay, note: Words, lang: str = "zh", photos: PhotoReader | None = None,
             uploads: Path | None = None) -> Any:
    """The app as an ASGI application. ``uploads``: the folder phones' photos land in (made and removed by the
    caller); None takes no uploads. Uploads are signed with a key made for this process and limited to
    :data:`UPLOAD_MAX_BYTES`."""
    from flet_web.fastapi import app as flet_fastapi_app

    reader = photos or PhotoReader()
    source = PhotoSource(reader.demo, reader.read_file, uploads)
    return flet_fastapi_app(make_main(replay, note, source, lang), assets_dir=str(assets_dir()), no_cdn=True,
                            app_name="companion", upload_dir=str(uploads) if uploads else None,
                            upload_endpoint_path="upload" if uploads else None,
                            max_upload_size=UPLOAD_MAX_BYTES, secret_key=secrets.token_urlsafe(32))


def server_config(app: Any, host: str, port: int) -> Any:
    """uvicorn's settings for the app (a ``uvicorn.Config``)."""
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")


def serve(replay: GameReplay, note: Words, host: str, port: int, lang: str = "zh",
          on_ready: Callable[[str], None] | None = None) -> None:
    """Serve until interrupted; ``on_ready(url)`` is called once the server listens."""
    import uvicorn

    uploads = tempfile.TemporaryDirectory(prefix="companion-uploads-")
    server = uvicorn.Server(server_config(asgi_app(replay, note, lang, uploads=Path(uploads.name)), host, port))
    if on_ready is not None:
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
        url = f"http://{shown}:{port}/"

        def wait_then_tell() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                on_ready(url)

        threading.Thread(target=wait_then_tell, daemon=True).start()
    try:
        server.run()
    finally:
        uploads.cleanup()
