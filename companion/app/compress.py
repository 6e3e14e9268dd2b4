"""gzip for the page's files, compressed once and kept: a phone's first visit fetched 18.9 MB as they lie on disk
(the Flutter program 8.5 MB, CanvasKit 3.6 MB, the CJK font 4.0 MB, the icon font 1.3 MB; measured in chromium),
over the table's Wi-Fi, before it could show anything. flet-web serves them uncompressed and says nothing of it.

:class:`GzipFiles` wraps the ASGI app: a GET of a file of a compressible type (wasm, JavaScript, HTML, CSS, JSON,
TrueType/OpenType fonts, SVG, text) by a browser that accepts gzip gets it gzipped. A file that carries an ETag (every
static file does) is compressed once per version and kept (a few MB in all, :data:`CACHE_BYTES` at most); its
ETag becomes weak (``W/"…"``), as nginx does, so the browser's revalidation still gets a 304 from the file
server, which ignores the ``W/``. The compression runs in a worker thread, so the phones' sockets on the same
event loop are not held up. Everything else passes through untouched: websockets, uploads, ranges, responses
already encoded, of unknown length, under :data:`MIN_BYTES` or over :data:`MAX_BYTES`, and what does not shrink.
"""

from __future__ import annotations

import asyncio
import gzip
import logging
from collections import OrderedDict
from typing import Any

__all__ = ["GzipFiles", "COMPRESSIBLE", "MIN_BYTES", "MAX_BYTES", "CACHE_BYTES"]

log = logging.getLogger(__name__)

COMPRESSIBLE = ("application/wasm", "text/", "application/javascript", "application/json", "font/ttf", "font/otf",
                "font/sfnt", "application/x-font-ttf", "image/svg+xml")
"""Content types worth compressing (prefixes). Not PNG, JPEG or woff2: they are compressed already."""
MIN_BYTES = 1024
MAX_BYTES = 64 << 20
CACHE_BYTES = 48 << 20
LEVEL = 6
"""gzip level: 9 took 2.4x the time of 6 on the Flutter program (0.67 s against 0.28) for 0.3% fewer bytes."""

_PASS_EXTENSIONS = ("http.response.pathsend", "http.response.zerocopysend")
"""Ways a file server may hand the file to the server itself, past any middleware: not offered downstream."""


def _header(headers: list[tuple[bytes, bytes]], name: bytes) -> bytes | None:
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


def _compressible(headers: list[tuple[bytes, bytes]]) -> bool:
    kind = (_header(headers, b"content-type") or b"").decode("latin-1").lower()
    if _header(headers, b"content-encoding") is not None or not kind.startswith(COMPRESSIBLE):
        return False
    length = _header(headers, b"content-length")
    return length is not None and length.isdigit() and MIN_BYTES <= int(length) <= MAX_BYTES


class GzipFiles:
    """The ASGI middleware (see the module)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._kept: OrderedDict[tuple[str, bytes], bytes] = OrderedDict()  # (path, etag) -> gzipped body
        self._kept_bytes = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers") or []
        accepts = (_header(headers, b"accept-encoding") or b"").lower()
        if b"gzip" not in accepts or _header(headers, b"range") is not None:
            await self.app(scope, receive, send)
            return
        extensions = {k: v for k, v in (scope.get("extensions") or {}).items() if k not in _PASS_EXTENSIONS}
        await self._gzipped({**scope, "extensions": extensions}, receive, send)

    async def _gzipped(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        start: dict[str, Any] | None = None
        passing = False
        parts: list[bytes] = []

        async def capture(message: dict[str, Any]) -> None:
            nonlocal start, passing
            kind = message["type"]
            if kind == "http.response.start":
                if message.get("status") != 200 or not _compressible(list(message.get("headers") or [])):
                    passing = True
                    await send(message)
                else:
                    start = message
            elif kind == "http.response.body" and not passing and start is not None:
                parts.append(message.get("body", b""))
                if not message.get("more_body", False):
                    await self._send(scope["path"], start, b"".join(parts), send)
            else:
                await send(message)

        await self.app(scope, receive, capture)

    async def _send(self, path: str, start: dict[str, Any], body: bytes, send: Any) -> None:
        headers = [(k, v) for k, v in start.get("headers") or [] if k.lower() not in (b"content-length", b"etag")]
        etag = _header(list(start.get("headers") or []), b"etag")
        key = (path, etag) if etag is not None else None
        packed = self._kept.get(key) if key is not None else None
        if packed is None:
            packed = await asyncio.to_thread(gzip.compress, body, LEVEL, mtime=0)
            if key is not None:
                self._keep(key, packed)
        else:
            self._kept.move_to_end(key)  # type: ignore[arg-type]
        if len(packed) >= len(body) * 0.9:  # it does not shrink: sent as it is
            await send({**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]
                        + ([(b"etag", etag)] if etag is not None else [])})
            await send({"type": "http.response.body", "body": body})
            return
        if etag is not None:
            headers.append((b"etag", etag if etag.startswith(b"W/") else b"W/" + etag))
        headers += [(b"content-encoding", b"gzip"), (b"vary", b"Accept-Encoding"),
                    (b"content-length", str(len(packed)).encode())]
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": packed})

    def _keep(self, key: tuple[str, bytes], packed: bytes) -> None:
        if len(packed) > CACHE_BYTES:
            return
        self._kept[key] = packed
        self._kept_bytes += len(packed)
        while self._kept_bytes > CACHE_BYTES:
            _, old = self._kept.popitem(last=False)
            self._kept_bytes -= len(old)
        log.debug("gzipped %s: %d bytes kept in all", key[0], self._kept_bytes)
