"""Child process of the crash test: submit events from a JSON-lines log, print each acknowledgement."""

import json
import sys

from companion.game import events as ev
from companion.game.service import Accepted, TableService


def main(db: str, log_path: str) -> int:
    with open(log_path, encoding="utf-8") as f:
        events = [ev.from_dict(json.loads(line)) for line in f if line.strip()]
    service = TableService(db)
    start = len(service.events())
    print(f"start {start}", flush=True)
    for e in events[start:]:
        r = service.submit(e)
        if not isinstance(r, Accepted):
            print(f"refused {r.reason}", flush=True)
            return 1
        print(f"ack {r.seq}", flush=True)
    service.close()
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
