"""An event's time zone and the one way a time is shown to people.

The store keeps every time in UTC; an event names the IANA zone it is played in
(``events.time_zone``, checked with :mod:`zoneinfo`; the ``tzdata`` package supplies the
zones where the system has none). New events are in ``Asia/Shanghai`` (Guandan is a game of
Jiangsu and Anhui); events made before zones existed keep ``UTC``.

A time shown to a person is the event's local time to the minute with its offset from UTC,
from the catalogue (``time.*``): ``1 Dec 2026 20:15 (UTC+8)`` in English,
``2026年12月1日 20:15（UTC+8）`` in Chinese; :func:`clock_text` gives the time of day alone
(``20:15 (UTC+8)``) for a round's clock. Machine outputs (JSON, exports) keep ISO 8601
with the offset and never come here.

    >>> from datetime import datetime, UTC
    >>> at = datetime(2026, 12, 1, 12, 0, 30, 123456, tzinfo=UTC)
    >>> when_text(at, "Asia/Shanghai", "en"), when_text(at, "Asia/Shanghai", "zh")
    ('1 Dec 2026 20:00 (UTC+8)', '2026年12月1日 20:00（UTC+8）')
    >>> when_text("2026-07-01T12:00:00+00:00", "Europe/London", "en")
    '1 Jul 2026 13:00 (UTC+1)'
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from duplicate.errors import DuplicateError
from duplicate.i18n import phrase, translator
from duplicate.i18n.stored import nested
from duplicate.limits import shown

#: The zone of a new event: Guandan is a game of Jiangsu and Anhui (China Standard Time).
DEFAULT_ZONE = "Asia/Shanghai"
#: The longest zone name ``events.time_zone`` holds.
MAX_ZONE = 64


class ZoneError(DuplicateError):
    """A time zone that is not an IANA zone name."""


@lru_cache(maxsize=1)
def _known() -> frozenset[str]:
    return frozenset(available_timezones())


def check_zone(name: str | None) -> str:
    """``name`` stripped when it is an IANA zone (``Asia/Shanghai``, ``Europe/London``,
    ``UTC``); else :class:`ZoneError`, one line in both languages."""
    zone = (name or "").strip()
    if not zone or len(zone) > MAX_ZONE or zone not in _known():
        raise ZoneError(phrase("events.err.time_zone", zone=shown(zone)),
                        cli_hint="--time-zone Asia/Shanghai")
    return zone


@lru_cache(maxsize=64)
def _zone(name: str) -> ZoneInfo:
    """The zone ``name``; UTC for a name this machine does not know (never an error when
    showing a stored time)."""
    try:
        return ZoneInfo(name if name in _known() else "UTC")
    except (ValueError, OSError):  # pragma: no cover - tzdata is a dependency
        return ZoneInfo("UTC")


def local(at: str | datetime, zone: str) -> datetime:
    """``at`` (aware, or naive meaning UTC as SQLite gives it back; or its ISO text) in
    ``zone``, to the minute."""
    when = at if isinstance(at, datetime) else datetime.fromisoformat(str(at))
    when = when.replace(tzinfo=UTC) if when.tzinfo is None else when
    return when.astimezone(_zone(zone)).replace(second=0, microsecond=0)


def offset_text(when: datetime) -> str:
    """``UTC+8``, ``UTC+5:30``, ``UTC-3``; ``UTC`` for no offset."""
    offset = when.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    if minutes == 0:
        return "UTC"
    sign, minutes = ("+", minutes) if minutes > 0 else ("-", -minutes)
    hours, rest = divmod(minutes, 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def when_text(at: str | datetime | None, zone: str = "UTC", lang: str | None = "en") -> str:
    """``at`` as a person reads it: the date and time to the minute in ``zone`` with its
    offset, in ``lang`` (``1 Dec 2026 20:15 (UTC+8)``); ``""`` for nothing, the text as it
    is when it is no time."""
    if not at:
        return ""
    try:
        when = local(at, zone)
    except (ValueError, TypeError):
        return str(at)
    t = translator(lang)
    return str(t("time.when", year=when.year, month=t(f"time.month.{when.month}"),
                 day=when.day, time=when.strftime("%H:%M"), zone=offset_text(when)))


def when_code(at: str | datetime, zone: str) -> dict[str, object]:
    """``at`` as a value of a stored phrase (``duplicate.i18n.stored.coded``): the time
    in ``zone`` that :func:`when_text` shows, said in the reader's language when the log is
    read (``1 Dec 2026 20:15 (UTC+8)``, ``2026年12月1日 20:15（UTC+8）``)."""
    when = local(at, zone)
    return nested("time.when", year=when.year, month=nested(f"time.month.{when.month}"),
                  day=when.day, time=when.strftime("%H:%M"), zone=offset_text(when))


class When:
    """A time as a phrase's value: put into words (:func:`when_text`) in the phrase's
    language when it is known (``phrase("…", when=When(at, zone))``)."""

    __slots__ = ("at", "zone")

    def __init__(self, at: str | datetime | None, zone: str = "UTC") -> None:
        self.at, self.zone = at, zone

    def text(self, lang: str | None = "en") -> str:
        return when_text(self.at, self.zone, lang)

    def __str__(self) -> str:
        return self.text("en")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, When) and (self.at, self.zone) == (other.at, other.zone)

    __hash__ = None  # type: ignore[assignment]


def clock_text(at: str | datetime | None, zone: str = "UTC", lang: str | None = "en") -> str:
    """``at`` as the time of day in ``zone`` with its offset (``20:15 (UTC+8)``): the
    times of one round's clock."""
    if not at:
        return ""
    try:
        when = local(at, zone)
    except (ValueError, TypeError):
        return str(at)
    return str(translator(lang)("time.clock", time=when.strftime("%H:%M"),
                                zone=offset_text(when)))
