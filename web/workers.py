"""Several uvicorn workers, each on a listening socket of its own (``SO_REUSEPORT``).

uvicorn's ``--workers`` share one listening socket, and whichever process is waiting in
``accept`` first takes the connection: under a burst of new connections one worker took
nearly all of them while the other idled (measured: 3.6 against 0.1 CPU-seconds in the
same 4 s). Phones keep their connection, so the imbalance lasts. With a socket per worker
bound with ``SO_REUSEPORT`` the kernel spreads connections over the workers by a hash of
their addresses.

:func:`run_workers` binds nothing itself (a listening socket in the parent would take its
share of connections and never answer them): it checks the address is free, starts the
workers (``spawn``), replaces a worker that dies, and on Ctrl-C or SIGTERM stops them all
(uvicorn finishes the requests in flight). Where the system has no ``SO_REUSEPORT``,
:func:`reuse_port_available` is false and ``guandan serve`` uses uvicorn's own workers.
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import threading
import time
from typing import Any

#: A worker that stops within this many seconds of its start is not restarted: it will
#: not start (a wrong setting, an address it cannot bind); the service stops.
STARTUP_SECONDS = 10.0


def reuse_port_available() -> bool:
    """Whether this system can give each worker its own socket on one port."""
    return hasattr(socket, "SO_REUSEPORT")


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _socket(host: str, port: int) -> socket.socket:
    sock = socket.socket(_family(host), socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock


class ListenError(OSError):
    """The workers cannot listen on the address (in use, not this host's)."""


def check_address(host: str, port: int) -> None:
    """Raise :class:`ListenError` unless the workers can bind ``host:port``."""
    try:
        _socket(host, port).close()
    except OSError as exc:
        raise ListenError(exc.errno, exc.strerror) from None


def _worker(host: str, port: int, config: dict[str, Any]) -> None:
    """One worker process: its own listening socket, uvicorn on it until stopped."""
    import uvicorn

    sock = _socket(host, port)
    sock.listen(2048)
    uvicorn.Server(uvicorn.Config(**config)).run(sockets=[sock])


def run_workers(host: str, port: int, workers: int, config: dict[str, Any]) -> int:
    """Serve with ``workers`` processes until Ctrl-C or SIGTERM; ``config`` is
    ``uvicorn.Config``'s keywords (the application, log level, ...). The exit status: 0
    when stopped, 1 when a worker could not start."""
    check_address(host, port)
    ctx = multiprocessing.get_context("spawn")
    stop = threading.Event()
    failed = False

    def start() -> tuple[multiprocessing.process.BaseProcess, float]:
        proc = ctx.Process(target=_worker, args=(host, port, config), daemon=False)
        proc.start()
        return proc, time.monotonic()

    got: list[int] = []

    def on_signal(signum: int, _frame: object) -> None:
        got.append(signum)
        stop.set()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    procs = [start() for _ in range(workers)]
    try:
        while not stop.wait(0.5):
            for i, (proc, started) in enumerate(procs):
                if proc.is_alive():
                    continue
                if time.monotonic() - started < STARTUP_SECONDS:
                    failed = True
                    stop.set()
                    break
                procs[i] = start()  # it died while serving: a new one takes its place
    finally:
        # Ctrl-C reaches the whole process group: the workers stop by themselves (a
        # second signal would make uvicorn drop the requests in flight), given a moment.
        # Otherwise (SIGTERM, SIGINT to this process alone, a failed worker) they are told.
        if got[:1] == [signal.SIGINT]:
            deadline = time.monotonic() + 2
            for proc, _ in procs:
                proc.join(max(0.0, deadline - time.monotonic()))
        for proc, _ in procs:
            if proc.is_alive():
                proc.terminate()  # SIGTERM: uvicorn finishes what is in flight
        for proc, _ in procs:
            proc.join(30)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for s, handler in old.items():
            signal.signal(s, handler)
    return 1 if failed else 0
