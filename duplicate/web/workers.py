"""Several uvicorn workers, each on a listening socket of its own (``SO_REUSEPORT``).

uvicorn's ``--workers`` share one listening socket, and whichever process is waiting in
``accept`` first takes the connection: under a burst of new connections one worker took
nearly all of them while the other idled (measured: 3.6 against 0.1 CPU-seconds in the
same 4 s). Phones keep their connection, so the imbalance lasts. With a socket per worker
bound with ``SO_REUSEPORT`` the kernel spreads connections over the workers by a hash of
their addresses.

:func:`run_workers` binds nothing itself (a listening socket in the parent would take its
share of connections and never answer them): it checks the address is free, starts the
workers (``spawn``), and on Ctrl-C or SIGTERM stops them all (uvicorn finishes the
requests in flight). A worker that dies, however often, is replaced: after a back-off
that doubles with each death in a row (0.5 s, 1 s, ... at most 30 s) and starts again
from the shortest once a worker has served a minute, so that the other workers keep
answering meanwhile and a worker that keeps dying does not spin. The service stops by
itself only when a worker cannot bind the address (:class:`ListenError`, with the
system's reason). Where the system has no ``SO_REUSEPORT``, :func:`reuse_port_available`
is false and ``guandan serve`` uses uvicorn's own workers.
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: The first wait before a dead worker's replacement starts; doubled for each death in a
#: row, up to :data:`BACKOFF_MAX`.
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0
#: A worker that served this long before it died was well: its replacement waits the least.
STEADY_SECONDS = 60.0
#: The exit status of a worker that could not bind the address (its reason in the queue).
BIND_FAILED = 3


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


def _worker(host: str, port: int, config: dict[str, Any], failures: Any) -> None:
    """One worker process: its own listening socket, uvicorn on it until stopped. A socket
    it cannot bind: the reason in ``failures``, exit status :data:`BIND_FAILED`."""
    try:
        sock = _socket(host, port)
    except OSError as exc:
        failures.put((exc.errno, exc.strerror or str(exc)))
        sys.exit(BIND_FAILED)
    import uvicorn  # lazy: the server, in the worker process only

    sock.listen(2048)
    uvicorn.Server(uvicorn.Config(**config)).run(sockets=[sock])


def _how(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


@dataclass
class _Slot:
    """One worker's place: its process (None while its replacement waits), when it
    started, its deaths in a row, when the next may start."""

    proc: multiprocessing.process.BaseProcess | None = None
    started: float = 0.0
    deaths: int = 0
    due: float = 0.0


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run_workers(
    host: str, port: int, workers: int, config: dict[str, Any],
    say: Callable[[str], None] = _say,
) -> None:
    """Serve with ``workers`` processes until Ctrl-C or SIGTERM; ``config`` is
    ``uvicorn.Config``'s keywords (the application, log level, ...). A worker that dies is
    replaced (``say`` tells the operator). Raises :class:`ListenError` when the address
    cannot be bound, by this process's check or by a worker."""
    check_address(host, port)
    ctx = multiprocessing.get_context("spawn")
    failures = ctx.SimpleQueue()
    stop = threading.Event()
    bind_error: tuple[int, str] | None = None

    def start(slot: _Slot) -> None:
        slot.proc = ctx.Process(target=_worker, args=(host, port, config, failures),
                                daemon=False)
        slot.proc.start()
        slot.started = time.monotonic()

    got: list[int] = []

    def on_signal(signum: int, _frame: object) -> None:
        got.append(signum)
        stop.set()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    slots = [_Slot() for _ in range(workers)]
    try:
        for slot in slots:
            start(slot)
        while not stop.wait(0.2):
            for slot in slots:
                now = time.monotonic()
                if stop.is_set():  # Ctrl-C stops the workers too: none is replaced
                    break
                if slot.proc is not None:
                    if slot.proc.is_alive():
                        continue
                    slot.proc.join()
                    if slot.proc.exitcode == BIND_FAILED and not failures.empty():
                        bind_error = failures.get()
                        stop.set()
                        break
                    if now - slot.started >= STEADY_SECONDS:
                        slot.deaths = 0
                    wait = min(BACKOFF_MAX, BACKOFF_FIRST * 2**slot.deaths)
                    slot.deaths += 1
                    say(f"worker {slot.proc.pid} stopped ({_how(slot.proc.exitcode)}): "
                        f"a new one starts in {wait:g} s")
                    slot.proc, slot.due = None, now + wait
                if now >= slot.due:
                    start(slot)
    finally:
        procs = [slot.proc for slot in slots if slot.proc is not None]
        # Ctrl-C reaches the whole process group: the workers stop by themselves (a
        # second signal would make uvicorn drop the requests in flight), given a moment.
        # Otherwise (SIGTERM, SIGINT to this process alone, a failed worker) they are told.
        if got[:1] == [signal.SIGINT]:
            deadline = time.monotonic() + 2
            for proc in procs:
                proc.join(max(0.0, deadline - time.monotonic()))
        for proc in procs:
            if proc.is_alive():
                proc.terminate()  # SIGTERM: uvicorn finishes what is in flight
        for proc in procs:
            proc.join(30)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for s, handler in old.items():
            signal.signal(s, handler)
    if bind_error is not None:
        raise ListenError(*bind_error)
