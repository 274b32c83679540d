"""Seats and sides (RULES.md §1): N, E, S, W in play order; N–S against E–W."""

from __future__ import annotations

from enum import IntEnum

from engine.errors import GuandanError


class Seat(IntEnum):
    """A seat; play passes N → E → S → W → N."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def next(self) -> Seat:
        """The next player in play order (下家)."""
        return Seat((self + 1) & 3)

    @property
    def prev(self) -> Seat:
        """The previous player in play order (上家)."""
        return Seat((self + 3) & 3)

    @property
    def partner(self) -> Seat:
        """The partner, opposite (对家)."""
        return Seat((self + 2) & 3)

    @property
    def side(self) -> Side:
        """The side this seat plays for."""
        return Side(self & 1)

    @classmethod
    def parse(cls, text: str) -> Seat:
        """Parse ``N``/``E``/``S``/``W`` (case-insensitive)."""
        t = text.strip().upper()
        if t not in ("N", "E", "S", "W"):
            raise GuandanError(f"invalid seat {text!r}: expected N, E, S or W",
                               "engine.bad_seat", shown=repr(text))
        return cls[t]


class Side(IntEnum):
    """A partnership: N–S (0) or E–W (1)."""

    NS = 0
    EW = 1

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side(1 - self)

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The side's two seats, in play order."""
        return (Seat(self), Seat(self + 2))

    @classmethod
    def parse(cls, text: str) -> Side:
        """Parse ``NS``/``EW`` (also ``N-S``, ``E–W``)."""
        t = text.strip().upper().replace("-", "").replace("–", "")
        if t not in ("NS", "EW"):
            raise GuandanError(f"invalid side {text!r}: expected NS or EW",
                               "engine.bad_side", side=repr(text))
        return cls[t]
