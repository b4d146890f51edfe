"""No client may take the server's connections for itself (`bounded`): connections per client, and
the time a request may take to arrive.

waitress keeps ``--connections`` open in a process and stops accepting any once they are all
taken; it closes a connection that has been silent for ``--timeout`` seconds. One client holding
2,100 half-sent requests therefore took every connection, and a search from anyone else waited in
the system's queue until the idle ones were closed (over 1 s in 10 of 18 probes, 28.4 s at
worst); and a client sending one byte of its request every few seconds was never silent long
enough to be closed. So, in each process:

- a client (an address) keeps at most ``--per-client`` connections open (`PER_CLIENT`): one more
  is closed as soon as it is accepted, before anything of it is read, so a flood from one
  address never fills the connections of the others;
- a request must arrive whole within ``--timeout`` seconds of its first byte, however it
  trickles in: a connection still sending its request after that is closed (waitress's own
  check, every few seconds, closes silent ones).

Behind a proxy every client has the proxy's address: give ``--per-client`` as many as
``--connections`` there.
"""

from __future__ import annotations

import time
from typing import Any

PER_CLIENT = 100
"""Connections a client (an address) keeps open at once in a process, unless ``--per-client`` says."""


def bounded(server: Any, per_client: int, whole_within: float) -> Any:
    """``server`` (made by ``waitress.server.create_server``, its channels `web.cli.serving.strict`)
    closing a client's connections beyond ``per_client`` at once and any request not arrived
    whole ``whole_within`` seconds after its first byte."""
    from waitress.server import BaseWSGIServer

    dispatchers = getattr(server, "map", None) or getattr(server, "_map", {})
    for each in [server, *dispatchers.values()]:  # one server, or each of a multi-socket one
        if isinstance(each, BaseWSGIServer):
            each.channel_class = _channel(each.channel_class, per_client)
            each.maintenance = _maintenance(each, each.maintenance, whole_within)
    return server


def _channel(base: type, per_client: int) -> type:
    class BoundedChannel(base):  # type: ignore[misc]
        began = 0.0
        """When the first byte of the request being read arrived."""

        def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
            super().__init__(server, sock, addr, adj, map=map)
            client = _client(addr)
            if client is not None and _open(self._map, client) > per_client:
                self.will_close = True  # closed by the server's loop, nothing of it read
                self.began = self.creation_time

        def received(self, data: bytes) -> bool:
            if self.request is None and data:
                self.began = time.time()
            return bool(super().received(data))

    return BoundedChannel


def _maintenance(server: Any, waitress_own: Any, whole_within: float) -> Any:
    def maintenance(now: float) -> None:
        waitress_own(now)
        cutoff = now - whole_within
        for channel in list(server.active_channels.values()):
            if getattr(channel, "request", None) is not None and not channel.requests and channel.began < cutoff:
                channel.will_close = True  # its request has been arriving for too long

    return maintenance


def _client(addr: Any) -> str | None:
    """The address of the client, or None (a Unix socket)."""
    return addr[0] if isinstance(addr, tuple) and addr else None


def _open(channels: dict[int, Any], client: str) -> int:
    """The connections of ``client`` open in this process, counting its newest."""
    return sum(1 for channel in list(channels.values()) if _client(getattr(channel, "addr", None)) == client)
