"""What a request will cost, from what requests like it cost before (`Costs`): how the gate
(`web.gate`) and the server's queue (`web.cli.dispatch`) tell a cheap request from a costly one.

A page's name says little of its cost: on the 90k library an entry page costs 4-86 ms of CPU and a
card with hundreds of rulings a second; a one-month diff cost 1.07 s the first time and a few
milliseconds once its changes were kept (`kb.read.changes`). So each process remembers, in CPU
seconds of the thread that answered:

- what each request cost the last time it was asked (its path and its query, the parameters in
  order: ``exact``, the latest `EXACT` requests);
- a moving estimate per shape of request (`shape`: the view, the names of its parameters and
  the page size asked, `ALPHA` the weight of the latest), for a request never asked before: of
  what requests cost the first time they were asked only, so that a cheap request asked over and
  over (a diff kept) cannot make the next new diffs of its shape pass for cheap;
- and, for a view never answered yet, the prior its decorator gives (`web.gate.costly`: a long
  answer; `web.gate.heavy`: a page that may be long).

A request is cheap when its estimate is under `CHEAP` seconds: it takes no turn and waits in no
line. What it really cost is recorded after it is answered, so a request that proved costly
takes its turn the next time it is asked.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from urllib.parse import parse_qsl, urlencode

CHEAP = 0.1
"""CPU seconds under which a request takes no turn (a search costs 2-15 ms, a page's budget 0.5 s)."""
LONG = 0.3
"""CPU seconds from which a request waits in the line of the long answers rather than the pages'."""
EXACT = 4096
"""Requests whose last cost is remembered, the latest asked, and shapes likewise (under 3 MB)."""
LONGEST = 512
"""Characters of the longest request remembered as itself (a longer one by its digest)."""
ALPHA = 0.3
"""Weight of the latest cost in a shape's moving estimate."""


def exact_key(path: str, query: str) -> str:
    """The request as remembered: its path and its parameters sorted (their order is no matter);
    one longer than `LONGEST` characters by its digest."""
    pairs = sorted(parse_qsl(query, keep_blank_values=True))
    key = f"{path}?{urlencode(pairs)}" if pairs else path
    return key if len(key) <= LONGEST else "#" + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def shape(endpoint: str, query: str) -> str:
    """The shape of a request: its view, the names of its parameters, and the page size asked."""
    pairs = parse_qsl(query, keep_blank_values=True)
    names = ",".join(sorted({name for name, _ in pairs}))
    size = next((value for name, value in pairs if name == "size"), "")
    return f"{endpoint}({names};size={size})"[:LONGEST]


class Costs:
    """The costs remembered by one process (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.exact: OrderedDict[str, float] = OrderedDict()
        self.shapes: OrderedDict[str, float] = OrderedDict()

    def estimate(self, endpoint: str, path: str, query: str, prior: float) -> float:
        """What the request will cost: its own last cost, else its shape's estimate, else ``prior``."""
        key = exact_key(path, query)
        with self.lock:
            if key in self.exact:
                return self.exact[key]
            return self.shapes.get(shape(endpoint, query), prior)

    def record(self, endpoint: str, path: str, query: str, seconds: float) -> None:
        """What the request cost, remembered for the next like it."""
        key, form = exact_key(path, query), shape(endpoint, query)
        with self.lock:
            if key not in self.exact:  # a request asked again says nothing of a new one (its answer may be kept)
                known = self.shapes.get(form)
                _keep(self.shapes, form, seconds if known is None else ALPHA * seconds + (1 - ALPHA) * known)
            _keep(self.exact, key, seconds)


def _keep(table: OrderedDict[str, float], key: str, seconds: float) -> None:
    """``key`` costs ``seconds``, the latest of ``table``'s `EXACT` (the oldest dropped)."""
    table[key] = seconds
    table.move_to_end(key)
    while len(table) > EXACT:
        table.popitem(last=False)
