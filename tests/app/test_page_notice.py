"""A phone whose table address stopped working (the host restarted with ``--new-token``) is told so on its page, in
both languages: a privacy review's phone showed Flet's English "Working..." for good."""

from __future__ import annotations

import asyncio
import os
import socket
from typing import Any

import pytest

from companion.app.page_notice import NOTICE, PageNotice
from tests.app.serving import served
from tests.app.test_app_browser import ARGS, CHROMIUM


def _answered(app: Any, scope: dict[str, Any]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(PageNotice(app)(scope, receive, send))
    return sent


def _serving(kind: bytes, chunks: list[bytes], encoding: bytes | None = None) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        headers = [(b"content-type", kind), (b"content-length", str(sum(map(len, chunks))).encode())]
        await send({"type": "http.response.start", "status": 200,
                    "headers": headers + ([(b"content-encoding", encoding)] if encoding else [])})
        for i, c in enumerate(chunks):
            await send({"type": "http.response.body", "body": c, "more_body": i < len(chunks) - 1})
    return app


def test_the_page_gets_the_notice_before_its_head_ends_and_nothing_else_is_touched() -> None:
    page = [b"<html><head><title>t</title>", b"</head><body></body></html>"]
    get = {"type": "http", "method": "GET", "path": "/", "headers": []}
    start, body = _answered(_serving(b"text/html; charset=utf-8", page), get)
    html = body["body"]
    assert html.startswith(b"<html><head><title>t</title><script>") and html.endswith(b"</script>\n</head><body></body></html>")
    assert dict(start["headers"])[b"content-length"] == str(len(html)).encode()
    assert all(line.encode() in html for line in NOTICE)  # both languages, as they are said
    for app, scope in ((_serving(b"application/javascript", [b"var a;</head>"]), get),
                       (_serving(b"text/html", [b"\x1f\x8b..."], b"gzip"), get),
                       (_serving(b"text/html", page), {**get, "method": "POST"})):
        untouched = b"".join(m.get("body", b"") for m in _answered(app, scope))
        assert untouched and b"<script>" not in untouched


@pytest.mark.timeout(300)
def test_a_phone_on_a_replaced_address_is_told_and_one_on_the_same_address_is_not() -> None:
    if os.environ.get("COMPANION_REQUIRE_BROWSER") != "1":
        if CHROMIUM is None:
            pytest.skip("Debian chromium is not installed (.ci/run installs it)")
        pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
    from playwright.sync_api import sync_playwright

    from companion.app.server import TableToken, asgi_app
    from companion.app.table_model import DEMO_HANDS, GameReplay
    from companion.app.words import ui

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    def app(token: str) -> Any:
        return TableToken(asgi_app(GameReplay.demo(), ui("demo_note", hands=DEMO_HANDS)), token, port)

    def is_check(request: Any) -> bool:  # the page asking for itself at its own address (the script's fetch)
        return request.resource_type == "fetch" and request.url.endswith("/?t=first-token")

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            phone = browser.new_page()
            phone.set_default_timeout(120_000)
            first = served(app("first-token"), port)
            first.__enter__()
            phone.goto(f"http://127.0.0.1:{port}/?t=first-token")
            phone.wait_for_selector("flt-semantics-placeholder", state="attached")  # the app is up
            with phone.expect_event("requestfailed", predicate=is_check):  # its socket closes, the server is gone:
                first.__exit__(None, None, None)  # the check gets no answer (a restart under way)...
            phone.evaluate("() => new Promise(r => setTimeout(r, 0))")  # (its handler has run)
            assert phone.locator("#companion-address-changed").count() == 0  # ...and says nothing
            with served(app("first-token"), port):  # back, keeping the address: the check is let in
                with phone.expect_response(lambda r: is_check(r.request)) as answered:
                    # a socket of the page's own closing now, with the server up, makes the page check at once
                    phone.evaluate(f"() => new WebSocket('ws://127.0.0.1:{port}/no-such-socket')")
                assert answered.value.status == 200
                phone.evaluate("() => new Promise(r => setTimeout(r, 0))")  # (the answer's handler has run)
                assert phone.locator("#companion-address-changed").count() == 0
            with served(app("second-token"), port):  # --new-token: the old address is refused
                notice = phone.wait_for_selector("#companion-address-changed")
                assert notice is not None
                said = notice.inner_text()
                assert NOTICE[0] in said and NOTICE[1] in said, said
        finally:
            browser.close()


@pytest.mark.timeout(300)
def test_the_page_asks_nothing_of_another_server() -> None:
    """flet-web's page fetched a script of Rive's from cdn.jsdelivr.net on every phone (the app uses no Rive and is
    served offline): a script of another origin is now kept out of the page, and said to have failed, as offline."""
    if os.environ.get("COMPANION_REQUIRE_BROWSER") != "1":
        if CHROMIUM is None:
            pytest.skip("Debian chromium is not installed (.ci/run installs it)")
        pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
    from playwright.sync_api import sync_playwright

    from companion.app.server import asgi_app
    from companion.app.table_model import DEMO_HANDS, GameReplay
    from companion.app.words import ui

    asked: list[str] = []
    with sync_playwright() as p, served(asgi_app(GameReplay.demo(), ui("demo_note", hands=DEMO_HANDS))) as address:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            phone = browser.new_page()
            phone.set_default_timeout(120_000)
            phone.on("request", lambda r: asked.append(r.url))
            phone.goto(address)
            phone.wait_for_selector("flt-semantics-placeholder", state="attached")  # the app is up
            # what the Rive loader does: a script of another origin appended to the body, waited on
            said = phone.evaluate("""() => new Promise(done => {
                const s = document.createElement("script");
                s.src = "https://cdn.example.org/rive_native.js";
                s.addEventListener("load", () => done(["load", s.isConnected]));
                s.addEventListener("error", () => done(["error", s.isConnected]));
                document.body.append(s);
            })""")
            assert said == ["error", False]
            # the page's own scripts still load
            own = phone.evaluate("""() => new Promise(done => {
                const s = document.createElement("script");
                s.src = "flutter.js";
                s.addEventListener("load", () => done("load"));
                s.addEventListener("error", () => done("error"));
                document.head.appendChild(s);
            })""")
            assert own == "load"
        finally:
            browser.close()
    foreign = [u for u in asked if not u.startswith(address) and not u.startswith(("data:", "blob:"))]
    assert asked and not foreign, foreign
