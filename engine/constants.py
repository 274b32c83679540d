"""The numbers and names the rules share with the compiled core, defined once.

The Python modules import them from here; at build time setup.py writes them into the C
header ``core_consts.h`` (:func:`engine._native.sources.header_text`), and this file is
part of the compiled core's source fingerprint, so a core built before a change here is
refused as stale (docs/CORE.md). Plain literals only: the build reads this file before the
engine can be imported.
"""

from __future__ import annotations

#: the combination types of RULES.md §3, in ComboType's order: (member name, FORMAT.md name)
COMBO_TYPES: tuple[tuple[str, str], ...] = (
    ("SINGLE", "Single"),
    ("PAIR", "Pair"),
    ("TRIPS", "Trips"),
    ("THREE_WITH_TWO", "ThreeWithTwo"),
    ("THREE_PAIR", "ThreePair"),
    ("TWO_TRIPS", "TwoTrips"),
    ("STRAIGHT", "Straight"),
    ("STRAIGHT_FLUSH", "StraightFlush"),
    ("BOMB", "Bomb"),
    ("FOUR_KINGS", "FourKings"),
)
#: the cards a hand is dealt (a quarter of the two packs)
HAND_SIZE = 27
#: a player with this many cards or fewer reports it (报牌, RULES.md §6)
REPORT_LIMIT = 10
#: the compiled core's API this engine speaks: bumped whenever an entry point changes
CORE_API_VERSION = 4

#: the integer constants written into the C header, by their C names
C_INTEGERS = {"HAND_SIZE": HAND_SIZE, "REPORT_LIMIT": REPORT_LIMIT,
              "CORE_API_VERSION": CORE_API_VERSION}
