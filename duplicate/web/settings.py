"""What the hall service is told when it starts: its database, the director's password,
the key that signs the director's session cookie, and the public address of the hall.

``guandan serve`` passes them to every uvicorn worker through the environment
(``GUANDAN_DB``, ``GUANDAN_DIRECTOR_PASSWORD``, ``GUANDAN_SECRET_KEY``,
``GUANDAN_PUBLIC_URL``, ``GUANDAN_THREADS``), so that all workers sign and check cookies
alike and share no other state.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from duplicate.db import resolve_url
from duplicate.errors import DuplicateError
from duplicate.i18n import phrase
from duplicate.sessions import Throttle

ENV_DB = "GUANDAN_DB"
ENV_PASSWORD = "GUANDAN_DIRECTOR_PASSWORD"
ENV_SECRET = "GUANDAN_SECRET_KEY"
ENV_PUBLIC_URL = "GUANDAN_PUBLIC_URL"
ENV_THREADS = "GUANDAN_THREADS"

#: Requests a worker runs at once (its thread pool; its database connections follow):
#: more threads than this only wait for the interpreter's lock on two cores (measured:
#: 222 reports/s with 40 threads a worker, 266 with 8).
DEFAULT_THREADS = 8
MAX_THREADS = 256

#: The largest request body the service accepts (bytes): 413 above it, before it is read.
MAX_BODY = 1024 * 1024
#: The largest ``.gdn`` play record accepted with a table's report (bytes of UTF-8).
MAX_RECORD = 256 * 1024

#: The shortest director password and secret key accepted (characters).
MIN_PASSWORD = 8
MIN_SECRET = 16


class SettingsError(DuplicateError):
    """A setting that is missing or unusable: the service does not start with it."""


@dataclass(frozen=True)
class Settings:
    """The service's settings. ``public_url`` (e.g. ``https://hall.example.org``) is what
    table cards print before ``/t/{token}``; empty means the address the request came to.
    ``threads``: requests a worker runs at once; ``throttle``: how wrong director
    passwords slow the next try (:class:`duplicate.sessions.Throttle`; its defaults in
    service, shorter waits in tests)."""

    db_url: str
    director_password: str
    secret_key: str
    public_url: str = ""
    threads: int = DEFAULT_THREADS
    throttle: Throttle = Throttle()

    def __post_init__(self) -> None:
        if len(self.director_password) < MIN_PASSWORD:
            raise SettingsError(phrase("rest.settings.password", min=MIN_PASSWORD,
                                       env=f"${ENV_PASSWORD}"))
        if len(self.secret_key) < MIN_SECRET:
            raise SettingsError(phrase("rest.settings.secret", min=MIN_SECRET,
                                       env=f"${ENV_SECRET}"))
        if not 1 <= self.threads <= MAX_THREADS:
            raise SettingsError(phrase("rest.settings.threads", max=MAX_THREADS,
                                       env=f"${ENV_THREADS}", threads=self.threads))
        url = self.public_url.strip()
        if url and not url.startswith(("http://", "https://")):
            raise SettingsError(phrase("rest.settings.public_url", url=repr(url)))
        object.__setattr__(self, "public_url", url.rstrip("/"))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings from the environment (``os.environ`` by default). The database
        falls back on ``$GUANDAN_DATABASE_URL``, then ``./guandan.sqlite`` (as the CLI's);
        a missing password or secret key is an error, never a default."""
        env = os.environ if environ is None else environ
        password = env.get(ENV_PASSWORD, "")
        if not password:
            raise SettingsError(phrase("rest.settings.no_password", env=f"${ENV_PASSWORD}"))
        secret = env.get(ENV_SECRET, "")
        if not secret:
            raise SettingsError(phrase("rest.settings.no_secret", env=f"${ENV_SECRET}"))
        threads = env.get(ENV_THREADS, "") or str(DEFAULT_THREADS)
        if not threads.isdigit():
            raise SettingsError(phrase("rest.settings.threads_number", env=f"${ENV_THREADS}",
                                       threads=repr(threads)))
        return cls(
            db_url=resolve_url(env.get(ENV_DB) or None),
            director_password=password,
            secret_key=secret,
            public_url=env.get(ENV_PUBLIC_URL, ""),
            threads=int(threads),
        )

    def to_env(self) -> dict[str, str]:
        """The environment variables that give a worker these settings (``from_env``)."""
        return {
            ENV_DB: self.db_url,
            ENV_PASSWORD: self.director_password,
            ENV_SECRET: self.secret_key,
            ENV_PUBLIC_URL: self.public_url,
            ENV_THREADS: str(self.threads),
        }
