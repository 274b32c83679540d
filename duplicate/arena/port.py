"""The arena's port, taken as soon as the command starts: the agents' launch scripts start
their clients half a second after the arena, and a client that finds no one listening
dies. The socket listens at once; the operating system holds the connections made while
the arena gets ready (its game, its boards), and the arena answers them when it serves on
this socket (:class:`duplicate.arena.server.ArenaServer`, ``sock``)."""

from __future__ import annotations

import ipaddress
import socket

#: connections held before the arena answers (asyncio's own default for a server)
BACKLOG = 100


def take_port(host: str, port: int) -> socket.socket | None:
    """A socket listening on ``host``:``port`` (``port`` 0: a free one), for an address
    written as numbers (``127.0.0.1``, ``0.0.0.0``, ``::1``); ``None`` for a host name,
    which may stand for several addresses: the server then listens on each itself. An
    address that cannot be taken raises ``OSError``, as the server would."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=BACKLOG)
