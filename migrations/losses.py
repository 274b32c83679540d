"""What a downgrade would lose, gathered while it runs and refused at its end.

A migration's ``downgrade`` names each thing the older schema cannot hold with
:func:`would_lose` (or :func:`rows_of` for tables it drops) and goes on; when the whole
downgrade has run, ``migrations/env.py`` calls :func:`refuse_losses`, which raises unless
the caller forced it (``duplicate.db.downgrade(..., force=True)``, ``guandan db downgrade
REV --force``, ``alembic -x force=1 downgrade REV``). The migration is one transaction
(``duplicate.db.migration_transaction``): refused, it changes nothing. Every step's loss is
counted on the data as that step finds it, so the refusal names all of them, not only the
first step's.

The revisions take the words of a refusal (:func:`phrase`, from the message catalogue) and
its error (:class:`DatabaseError`) from here: a revision imports no module of the
application (``tests/test_migrations_standalone.py``), whose meaning may change after it.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

import sqlalchemy as sa

from duplicate.errors import DatabaseError
from duplicate.i18n import Phrase, Term, normalise_language, phrase, translator

#: The key of ``config.attributes`` holding the losses found so far.
LOSSES = "guandan.losses"


def offline() -> bool:
    """Whether the migration only writes SQL (``alembic --sql``): nothing to count then."""
    from alembic import context

    return bool(context.is_offline_mode())


def would_lose(phrase: str | Phrase) -> None:
    """Note that the running downgrade would lose what ``phrase`` says (a catalogue phrase,
    ``out.loss.*``, said in the reader's language)."""
    from alembic import context

    attributes: MutableMapping[str, Any] = context.config.attributes
    attributes.setdefault(LOSSES, []).append(phrase)


def rows_of(conn: sa.Connection, *tables: str) -> None:
    """Note the rows of each of ``tables`` (dropped by the running downgrade)."""
    if offline():
        return
    for table in tables:
        n = int(conn.execute(sa.text(f'SELECT COUNT(*) FROM "{table}"')).scalar_one())
        if n:
            # the table by what it holds in the reader's words (events: 赛事), its own
            # name in English
            would_lose(phrase("out.loss.rows", n=n, table=Term(table, f"out.table.{table}")))


def count(conn: sa.Connection, sql: str) -> int:
    """The number ``sql`` (a ``SELECT COUNT(*)``) counts."""
    return int(conn.execute(sa.text(sql)).scalar_one())


def names(conn: sa.Connection, sql: str, limit: int = 5) -> _Names | Phrase:
    """The first ``limit`` values ``sql`` selects, quoted, and whether there are more (a
    phrase of the reader's language then); empty (false) when it selects none."""
    found = [str(r[0]) for r in conn.execute(sa.text(sql)).fetchmany(limit + 1)]
    shown = _Names(tuple(n[:40] + ("…" if len(n) > 40 else "") for n in found[:limit]))
    return phrase("out.loss.and_more", names=shown) if len(found) > limit else shown


class _Names:
    """Names as a value of a phrase, each quoted in the reader's language: English
    ``'Cup', 'Bowl'``, Chinese ``“杯”、“碗”``."""

    __slots__ = ("names",)

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def __bool__(self) -> bool:
        return bool(self.names)

    def text(self, lang: str | None = "en") -> str:
        if normalise_language(lang) == "en":
            return ", ".join(repr(n) for n in self.names)
        return str(translator(lang)("list.sep").join(f"“{n}”" for n in self.names))

    def __str__(self) -> str:
        return self.text("en")


def refuse_losses(attributes: MutableMapping[str, Any], force: bool) -> None:
    """Raise :class:`DatabaseError` naming every loss noted, unless ``force``."""
    losses: list[str] = attributes.pop(LOSSES, [])
    if not losses or force:
        return
    target = attributes.get("target") or "REVISION"
    raise DatabaseError(
        phrase("out.db.would_lose", target=target, losses=_Losses(tuple(losses))),
        cli_hint=phrase("out.db.force_hint", target=target),
    )


class _Losses:
    """The losses of a refused downgrade, each in the reader's language, one after another."""

    __slots__ = ("items",)

    def __init__(self, items: tuple[str | Phrase, ...]) -> None:
        self.items = items

    def text(self, lang: str | None = "en") -> str:
        sep = translator(lang)("out.list.semi")
        return str(sep.join(i.text(lang) if isinstance(i, Phrase) else i for i in self.items))

    def __str__(self) -> str:
        return self.text("en")
