"""The page's files go to the phones gzipped, compressed once per version, and revalidate with a 304 as before
(companion/app/compress.py); what should not be compressed passes through as it was."""

from __future__ import annotations

import asyncio
import gzip
import os
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from companion.app import compress
from companion.app.compress import GzipFiles

GZIP = {"Accept-Encoding": "gzip"}
NONE = {"Accept-Encoding": "identity"}


class Got:
    """A response as a browser sees it: its status, headers, the bytes on the wire, and the content (ungzipped)."""

    def __init__(self, status: int, headers: dict[str, str], wire: bytes) -> None:
        self.status_code, self.headers, self.wire = status, headers, wire
        self.content = gzip.decompress(wire) if headers.get("content-encoding") == "gzip" else wire


class Client:
    """GETs through an ASGI app, as a server that offers to send a file itself (``pathsend``) runs them."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def get(self, path: str, headers: dict[str, str]) -> Got:
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.pathsend":  # the server sends the file itself
                message = {"type": "http.response.body", "body": Path(message["path"]).read_bytes()}
            sent.append(message)

        asked: list[bool] = []

        async def receive() -> dict[str, Any]:  # the request, then nothing until the browser goes
            if not asked:
                asked.append(True)
                return {"type": "http.request", "body": b"", "more_body": False}
            await asyncio.Event().wait()
            raise AssertionError("unreachable")

        scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
                 "root_path": "", "scheme": "http", "server": ("testserver", 80), "http_version": "1.1",
                 "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
                 "extensions": {"http.response.pathsend": {}}}
        asyncio.run(self.app(scope, receive, send))
        start = next(m for m in sent if m["type"] == "http.response.start")
        head = {k.decode(): v.decode() for k, v in start["headers"]}
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        assert "content-length" not in head or int(head["content-length"]) == len(body)
        return Got(start["status"], head, body)


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "main.js").write_text("console.log('tile');\n" * 5000)  # 105 kB of text
    (tmp_path / "program.wasm").write_bytes(b"\0asm\1\0\0\0" + bytes(range(64)) * 2000)
    (tmp_path / "noise.js").write_bytes(os.urandom(50_000))  # does not shrink
    (tmp_path / "tiny.js").write_text("1;")
    (tmp_path / "tile.png").write_bytes(b"\x89PNG" + bytes(20_000))
    return tmp_path


def _client(folder: Path) -> Client:
    return Client(GzipFiles(Starlette(routes=[Mount("/", StaticFiles(directory=folder))])))


def test_a_text_file_is_sent_gzipped_to_a_browser_that_takes_gzip(files: Path) -> None:
    client = _client(files)
    plain = client.get("/main.js", headers=NONE)
    packed = client.get("/main.js", headers=GZIP)
    assert plain.headers.get("content-encoding") is None and plain.content == (files / "main.js").read_bytes()
    assert packed.headers["content-encoding"] == "gzip" and packed.headers["vary"] == "Accept-Encoding"
    assert packed.content == plain.content
    assert len(packed.wire) < len(plain.content) / 10
    assert packed.headers["content-type"] == plain.headers["content-type"]
    assert packed.headers["etag"] == "W/" + plain.headers["etag"]  # weak: another representation of the file
    wasm = client.get("/program.wasm", headers=GZIP)
    assert wasm.headers["content-encoding"] == "gzip" and wasm.headers["content-type"] == "application/wasm"
    assert wasm.content == (files / "program.wasm").read_bytes()


def test_a_browser_revalidating_its_gzipped_copy_gets_a_304(files: Path) -> None:
    client = _client(files)
    first = client.get("/main.js", headers=GZIP)
    again = client.get("/main.js", headers={**GZIP, "If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_each_version_of_a_file_is_compressed_once(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = gzip.compress

    def counted(data: bytes, *args: Any, **kwargs: Any) -> bytes:
        calls.append(len(data))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(compress.gzip, "compress", counted)
    client = _client(files)
    bodies = [client.get("/main.js", headers=GZIP).content for _ in range(3)]
    assert len(calls) == 1 and bodies[0] == bodies[2]
    (files / "main.js").write_text("console.log('another');\n" * 5000)  # a new version: a new ETag
    os.utime(files / "main.js", (1, 1))
    assert client.get("/main.js", headers=GZIP).content.startswith(b"console.log('another')")
    assert len(calls) == 2


@pytest.mark.parametrize("path, headers", [("/tile.png", GZIP), ("/tiny.js", GZIP), ("/main.js", NONE),
                                           ("/main.js", {**GZIP, "Range": "bytes=0-99"}), ("/missing.js", GZIP)])
def test_what_should_not_be_compressed_passes_through(files: Path, path: str, headers: dict[str, str]) -> None:
    got = _client(files).get(path, headers=headers)
    assert got.headers.get("content-encoding") is None
    if got.status_code == 206:
        assert got.content == (files / "main.js").read_bytes()[:100]


def test_a_file_that_does_not_shrink_is_sent_as_it_is(files: Path) -> None:
    got = _client(files).get("/noise.js", headers=GZIP)
    assert got.headers.get("content-encoding") is None and got.content == (files / "noise.js").read_bytes()
    assert not got.headers["etag"].startswith("W/")


def test_the_served_app_sends_the_flutter_program_gzipped(tmp_path: Path) -> None:
    """The served app itself: flet-web's largest file (8.5 MB) arrives gzipped, byte for byte the same."""
    import flet_web

    from companion.app.server import asgi_app
    from companion.app.table_model import GameReplay
    from companion.app.words import Words

    app = asgi_app(GameReplay.demo(), Words("", ""), uploads=tmp_path)
    program = Path(flet_web.__file__).parent / "web" / "main.dart.wasm"
    got = Client(app).get("/main.dart.wasm", headers=GZIP)
    assert got.status_code == 200 and got.headers["content-encoding"] == "gzip"
    assert got.content == program.read_bytes()
    assert len(got.wire) < program.stat().st_size / 2
