"""waitress's queue of requests waiting for a thread, cheap ones first (`cheap_first`).

waitress hands requests to its threads in the order they came. Under a flood of costly requests
(a diff, a deck, a card with hundreds of rulings: the requests that take turns, `web.gate`, as
their cost says, `web.costs`) a search waited in that queue behind dozens of them, even those
that would only be refused, while the machine's cores were busy. Here a search, an
autocompletion, a document page or any request known to be cheap waiting for a thread goes
before every costly request waiting, unless the oldest of those has waited `PATIENCE` seconds
already (so that a steady stream of searches cannot starve them: it is then taken, and most
often refused at once by the gate).
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from flask import Flask
from werkzeug.exceptions import HTTPException

from web.costs import CHEAP, Costs

PATIENCE = 2.0
"""Seconds a costly request waits for a thread before it goes first."""


def costly(app: Flask, path: str, query: str = "") -> bool:
    """Whether the request for ``path?query`` will take a turn (`web.gate`): a view that may,
    and a cost estimated at `web.costs.CHEAP` or more."""
    try:
        endpoint, _ = app.url_map.bind("localhost").match(path, method="GET")
    except HTTPException:  # not found, a redirect, a method not allowed: cheap
        return False
    prior = getattr(app.view_functions.get(endpoint), "prior", None)
    if prior is None:
        return False
    known: Costs = app.extensions["costs"]
    return known.estimate(endpoint, path, query, prior) >= CHEAP


class CheapFirst:
    """The requests waiting for a thread (waitress's channels, each with its request first in
    ``requests``), as the deque waitress keeps them in: cheap ones first, costly ones after,
    each in the order they came."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.cheap: deque[Any] = deque()
        self.costly: deque[tuple[float, Any]] = deque()

    def append(self, task: Any) -> None:
        request = task.requests[0] if getattr(task, "requests", None) else None
        path, query = getattr(request, "path", None), getattr(request, "query", "")
        if isinstance(path, str) and costly(self.app, path, query if isinstance(query, str) else ""):
            self.costly.append((time.monotonic(), task))
        else:
            self.cheap.append(task)

    def popleft(self) -> Any:
        if self.costly and (not self.cheap or time.monotonic() - self.costly[0][0] >= PATIENCE):
            return self.costly.popleft()[1]
        return self.cheap.popleft()

    def __len__(self) -> int:
        return len(self.cheap) + len(self.costly)


def cheap_first(server: Any, app: Flask) -> Any:
    """``server`` (made by ``waitress.server.create_server``, nothing queued yet) giving its
    threads the cheap requests of ``app`` first (`CheapFirst`)."""
    server.task_dispatcher.queue = CheapFirst(app)
    return server
