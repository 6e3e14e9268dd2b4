"""``companion app [LOG]``: serve the Flet app in web mode (a laptop at the table; phones join by URL).

Without LOG it replays the bundled demo game (four hands played by the bots) and scores the bundled photo, so it
shows something real without a camera; with LOG it replays that event log (``companion simulate`` or a table's
export). Stops with Ctrl+C.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import socket
import sys
import webbrowser


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("app", help="serve the app in the browser (the bundled demo game without LOG) / "
                                   "在瀏覽器開啟小幫手（不給紀錄檔就播放內附的示範牌局）",
                       description="Serve the companion app in web mode: the table replayed step by step (waits, "
                                   "dealer, streak, tai and payments) and a photographed hand scored. / "
                                   "以網頁模式開啟小幫手：逐步重播牌局（聽牌、莊家、連莊、台數與付款），以及拍照算台。")
    p.add_argument("log", nargs="?", help="an event log (JSON lines) to replay instead of the demo game / "
                                          "要重播的牌局紀錄（JSON lines），不給就用示範牌局")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (0.0.0.0 lets phones on the same network join) / "
                        "監聽的位址（0.0.0.0 讓同一網路的手機連進來）")
    p.add_argument("--port", type=int, default=8550, help="port (default 8550) / 連接埠（預設 8550）")
    p.add_argument("--lang", choices=("zh", "en"), default="zh",
                   help="the app's first language (it has a switch) / 開啟時的語言（頁面上可切換）")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser / 不自動開啟瀏覽器")
    p.set_defaults(func=run)


def _say(zh: str, en: str) -> None:
    print(f"companion app: {en} / {zh}", file=sys.stderr)


def _port_free(host: str, port: int) -> OSError | None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as bad:
            return bad
    return None


def run(args: argparse.Namespace) -> int:
    from companion.app.server import serve
    from companion.app.table_model import DEMO_HANDS, DEMO_SEED, GameReplay, LogError
    from companion.app.words import ui

    if not 0 < args.port < 65536:
        _say(f"連接埠必須是 1-65535，收到 {args.port}", f"--port must be 1-65535, got {args.port}")
        return 2
    try:
        if args.log:
            with open(args.log, "rb") as f:
                replay = GameReplay.from_lines(f, args.log)
            note = ui("log_note", file=args.log)
        else:
            replay = GameReplay.demo()
            note = ui("demo_note", seed=DEMO_SEED, hands=DEMO_HANDS)
    except OSError as bad:
        _say(f"無法讀取 {args.log}（{bad.strerror}）", f"cannot read {args.log}: {bad.strerror}")
        return 2
    except LogError as bad:
        _say(bad.words.zh, bad.words.en)
        return 1
    busy = _port_free(args.host, args.port)
    if busy is not None:
        why = "already in use" if busy.errno == errno.EADDRINUSE else busy.strerror
        _say(f"無法使用 {args.host}:{args.port}（{why}）；用 --port 換一個",
             f"cannot listen on {args.host}:{args.port} ({why}); pick another with --port")
        return 2

    def ready(url: str) -> None:
        print(f"companion app: {url}  (Ctrl+C 結束 / Ctrl+C to stop)", flush=True)
        if not args.no_browser:
            webbrowser.open(url)

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C is how the app is stopped
        serve(replay, note, args.host, args.port, args.lang, ready)
    return 0
