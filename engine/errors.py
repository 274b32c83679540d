"""The engine's own exceptions. Every one is a ``ValueError`` with a message a user can act on."""

from __future__ import annotations


class Part:
    """A piece of an error's message that has a key of its own, so that a reader in another
    language can word it too: a seat in a list (``engine.seat``), two things joined
    (``engine.either``: ``S5 or H5``), what is still owed. ``str()`` is its English."""

    __slots__ = ("english", "key", "values")

    def __init__(self, english: str, key: str, **values: str | int | Part) -> None:
        self.english = english
        self.key = key
        self.values: dict[str, str | int | Part] = values

    def __str__(self) -> str:
        return self.english

    def __repr__(self) -> str:
        return f"Part({self.english!r}, {self.key!r})"


def joined(items: list[Part | str], key: str, sep: str) -> Part | str:
    """``items`` joined as ``a{sep}b{sep}c`` (``S5 or H5 or C5``), each join a
    :class:`Part` of ``key`` (values ``a`` and ``b``)."""
    if not items:
        return ""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = Part(f"{item}{sep}{out}", key, a=item, b=out)
    return out


class GuandanError(ValueError):
    """Base of every error the engine raises for bad input or an illegal action.

    The message is English. ``key`` (``engine.out_of_turn``) and ``values`` (strings and
    integers) say the same as data, so that a reader in another language can word it: the
    ``duplicate`` library finds the key in its ``engine`` catalogue domain. An error raised
    without a key (the compiled core's, a caller's own) has ``key`` None. A value may be a
    :class:`Part`: words with a key of their own."""

    def __init__(self, message: str = "", key: str | None = None,
                 **values: str | int | Part) -> None:
        super().__init__(message)
        self.key = key
        self.values: dict[str, str | int | Part] = values


class InvalidCardError(GuandanError):
    """A card token, rank or level that does not exist, or a card present too often."""


class InvalidComboError(GuandanError):
    """A set of cards that is no combination (RULES.md §3), or not the one declared."""


class IllegalPlayError(GuandanError):
    """A play that breaks the rules in the current position (not held, does not beat, ...)."""


class OutOfTurnError(IllegalPlayError):
    """An action by a seat whose turn it is not."""


class TributeError(GuandanError):
    """A wrong tribute or return card (RULES.md §9)."""


class GameOverError(GuandanError):
    """An action after the deal or match has ended."""
