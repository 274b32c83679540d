"""The engine's own exceptions. Every one is a ``ValueError`` with a message a user can act on."""

from __future__ import annotations


class GuandanError(ValueError):
    """Base of every error the engine raises for bad input or an illegal action.

    The message is English. ``key`` (``engine.out_of_turn``) and ``values`` (strings and
    integers) say the same as data, so that a reader in another language can word it: the
    ``duplicate`` library finds the key in its ``engine`` catalogue domain. An error raised
    without a key (the compiled core's, a caller's own) has ``key`` None."""

    def __init__(self, message: str = "", key: str | None = None, **values: str | int) -> None:
        super().__init__(message)
        self.key = key
        self.values: dict[str, str | int] = values


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
