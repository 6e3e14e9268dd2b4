"""A phone whose address stopped working is told so on its page, in both languages.

When the host restarts the app with ``--new-token``, a phone still on the old address keeps the page it has, and its
socket is refused (403) at every reconnection: Flet's page showed only its own English "Working..." for good (a
privacy review). :class:`PageNotice` adds to the page (its HTML, as served) a few lines of script that, when the
page's socket closes, ask the server for the page again at the address the phone holds (with its ``?t=…``: a phone
that keeps no cookies is let in by it), and once the answer is 403 (that address no longer lets it in) cover the page
with :data:`NOTICE`: what happened and what to do. A server that is restarting (no answer) or
lets the page in again (200) changes nothing: Flet reconnects as it does.

The same lines keep the page to the table's own server (:data:`LOCAL_ONLY`): flet-web's page fetched a script of
Rive's from cdn.jsdelivr.net on every phone, though the app is served offline (``no_cdn``) and uses no Rive.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["PageNotice", "NOTICE", "SCRIPT", "LOCAL_ONLY"]

NOTICE = ("這張桌子的網址換了（主持人換了新的通行碼），這個網址已經不能用：請向主持人要新的網址（含 ?t=…）再開啟",
          "This table's address has changed (the host made a new one), and this one no longer works: ask the host "
          "for the new address (with ?t=…) and open it")
"""What a phone refused by the table's token is told (Chinese, English)."""

SCRIPT = """<script>
(function () {
  var Socket = window.WebSocket, told = false, asking = false;
  if (!Socket) return;
  function tell() {
    told = true;
    var d = document.createElement("div");
    d.id = "companion-address-changed";
    d.setAttribute("role", "alert");
    d.style.cssText = "position:fixed;inset:0;z-index:2147483647;background:#fffdf6;color:#1b1b1b;" +
      "font:20px/1.6 sans-serif;padding:32px;overflow:auto";
    NOTICE.forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      d.appendChild(p);
    });
    document.body.appendChild(d);
  }
  function ask() {
    if (told || asking) return;
    asking = true;
    fetch(location.pathname + location.search, {credentials: "same-origin", cache: "no-store"}).then(function (r) {
      if (r.status === 403) tell();
    }).catch(function () {}).then(function () { asking = false; });
  }
  function Watched(url, protocols) {
    var s = protocols === undefined ? new Socket(url) : new Socket(url, protocols);
    s.addEventListener("close", function () { setTimeout(ask, 300); });
    return s;
  }
  Watched.prototype = Socket.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (k) { Watched[k] = Socket[k]; });
  window.WebSocket = Watched;
})();
</script>
"""


LOCAL_ONLY = """<script>
(function () {
  // flet-web's page appends a script of Rive's from cdn.jsdelivr.net at start, even served with no_cdn, which the app
  // never uses: every phone at the table would tell a third party it opened the page. A script from another origin
  // is not put in the page; its "error" is said as an offline phone's failed fetch says it, so nothing waits on it.
  function foreign(node) {
    if (!node || node.nodeName !== "SCRIPT" || !node.src) return false;
    try {
      var url = new URL(node.src, document.baseURI);
      return /^https?:$/.test(url.protocol) && url.origin !== location.origin;
    } catch (e) { return false; }
  }
  function refuse(node) {
    setTimeout(function () { node.dispatchEvent(new Event("error")); }, 0);
  }
  try {
    var append = Element.prototype.append, appendChild = Node.prototype.appendChild;
    Element.prototype.append = function () {
      var kept = [];
      for (var i = 0; i < arguments.length; i++) {
        if (foreign(arguments[i])) refuse(arguments[i]); else kept.push(arguments[i]);
      }
      return append.apply(this, kept);
    };
    Node.prototype.appendChild = function (node) {
      if (foreign(node)) { refuse(node); return node; }
      return appendChild.call(this, node);
    };
  } catch (e) {}
})();
</script>
"""


class PageNotice:
    """ASGI middleware: the page's HTML (a GET answered ``text/html``) gets :data:`LOCAL_ONLY` and :data:`SCRIPT` (with
    :data:`NOTICE`) before its ``</head>``; everything else passes through untouched."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.script = LOCAL_ONLY + SCRIPT.replace("NOTICE.forEach", f"{json.dumps(list(NOTICE), ensure_ascii=False)}.forEach")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] | None = None
        body: list[bytes] = []

        async def to_the_phone(message: dict[str, Any]) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                kind = dict(message.get("headers", [])).get(b"content-type", b"")
                encoded = dict(message.get("headers", [])).get(b"content-encoding")
                if kind.startswith(b"text/html") and encoded is None:
                    start = message  # held until the whole page is here
                    return
            elif message["type"] == "http.response.body" and start is not None:
                body.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                page = b"".join(body)
                at = page.find(b"</head>")
                if at >= 0:
                    page = page[:at] + self.script.encode() + page[at:]
                headers = [(k, v) for k, v in start.get("headers", []) if k != b"content-length"]
                await send({**start, "headers": [*headers, (b"content-length", str(len(page)).encode())]})
                await send({"type": "http.response.body", "body": page})
                return
            await send(message)

        await self.app(scope, receive, to_the_phone)
