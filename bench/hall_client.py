"""The hall benchmark's HTTP client: plain HTTP/1.1 with keep-alive on asyncio streams.

httpx cost the benchmark about 3.5 ms of CPU a request on this machine: at the rates
measured (hundreds of requests a second) the load generator took a core from the service
it measured, on a 2-core machine. This client does what the benchmark needs and nothing
more: one request at a time per connection, ``Content-Length`` bodies (the service never
streams), idle connections reused, a connection the server closed while idle (uvicorn
closes them after 5 s) replaced once, transparently, as a browser does. About 0.15 ms of
CPU a request.
"""

from __future__ import annotations

import asyncio
import json as jsonlib
from typing import Any
from urllib.parse import urlencode

#: What a request may raise when the connection fails (counted as a dropped connection).
TransportError = (OSError, asyncio.IncompleteReadError, ConnectionError, ValueError)


class Response:
    """A status, lower-case headers and the body."""

    def __init__(self, status_code: int, headers: dict[str, str], content: bytes) -> None:
        self.status_code, self.headers, self.content = status_code, headers, content

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return jsonlib.loads(self.content)


class RawClient:
    """Requests to one ``host:port``; at most as many connections as requests in flight
    (the caller limits those)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def request(
        self, method: str, url: str, *, json: Any = None, params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        if params:
            url = f"{url}?{urlencode(params)}"
        body = b"" if json is None else jsonlib.dumps(json).encode()
        lines = [f"{method} {url} HTTP/1.1", f"Host: {self.host}:{self.port}",
                 f"Content-Length: {len(body)}"]  # fmt: skip
        if json is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        data = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        while self.idle:  # a kept connection; the server may have closed it meanwhile
            conn = self.idle.pop()
            try:
                return await self._exchange(conn, data)
            except TransportError:
                conn[1].close()
        return await self._exchange(await asyncio.open_connection(self.host, self.port), data)

    async def _exchange(
        self, conn: tuple[asyncio.StreamReader, asyncio.StreamWriter], data: bytes
    ) -> Response:
        reader, writer = conn
        try:
            writer.write(data)
            status = await reader.readline()
            if not status:
                raise ConnectionError("the server closed the connection")
            code = int(status.split(b" ", 2)[1])
            headers: dict[str, str] = {}
            while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            if "chunked" in headers.get("transfer-encoding", ""):
                raise ValueError("a chunked answer (the service sends Content-Length)")
            content = await reader.readexactly(int(headers.get("content-length", "0")))
        except BaseException:
            writer.close()
            raise
        if headers.get("connection", "").lower() == "close":
            writer.close()
        else:
            self.idle.append(conn)
        return Response(code, headers, content)

    async def aclose(self) -> None:
        for _, writer in self.idle:
            writer.close()
        self.idle.clear()
