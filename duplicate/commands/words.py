"""The command line's human words: what the library keeps in English (closed-set words
such as ``played``, ``open``, ``swiss``; stored results ``NS +2 (record …)``; seat letters;
ISO times; the record rank ``T``) put into the output's language and the one card
convention for a person, as docs/GLOSSARY.md writes them. ``--json`` and ``--csv`` keep
the library's words; English tables keep them too unless a word is wrong for a person
(a level is 10, never T)."""

from __future__ import annotations

from typing import Any

from duplicate.commands.common import cell_word, cli_lang
from duplicate.i18n import translator
from duplicate.i18n.stored import state_words, who_said


def minute_text(at: Any, zone: str = "UTC") -> Any:
    """A stored ISO time as a person reads it in a table: the event's local time to the
    minute with its offset (``1 Dec 2026 20:44 (UTC+8)``, :func:`duplicate.zones.when_text`).
    --json and --csv keep the ISO text."""
    from duplicate.zones import when_text

    return when_text(at, zone, cli_lang()) if isinstance(at, str) and at else at


def human_seat_rows(c: Any, lang: str) -> list[dict[str, Any]]:
    """``c.seat_rows()`` for a person: the wild hearts and the cards left in the one card
    convention (``♠6``, ``10♥``), never tokens (--csv keeps the tokens)."""
    from duplicate.i18n import game as vocab
    from duplicate.i18n import translator

    seats = {(room.room, s.seat.name): s for room in c.rooms for s in room.seats}
    rows = []
    for row in c.seat_rows():
        s = seats[row["room"], row["seat"]]
        wilds = [vocab.use_text(w.use, c.level, lang) for w in s.wilds]
        key = row["room"].lower()
        rows.append({
            **row,
            "room": translator(lang)(f"report.room.{key}")
            if key in ("open", "closed") and lang != "en" else row["room"],
            "wilds": translator(lang)("list.sep").join(wilds),
            "cards_left": vocab.faces_text(vocab.hand_faces(s.cards_left, c.level, lang)),
        })
    return rows


def human_board_lines(comparisons: list[Any], lang: str) -> list[dict[str, Any]]:
    """``board_lines`` for a person: the level as a player writes it (10, never T) and
    the rooms by their names in ``lang`` (开室/闭室); --csv and --json keep the tags."""
    from duplicate.compare import board_lines
    from duplicate.i18n import game as vocab
    from duplicate.i18n import translator

    t = translator(lang)

    def room(name: str) -> str:  # English keeps the records' Room tags
        key = name.lower()
        return t(f"report.room.{key}") if key in ("open", "closed") and lang != "en" else name

    rows = []
    for c, row in zip(comparisons, board_lines(comparisons), strict=True):
        names = [room(r.room) for r in c.rooms[:2]]
        rows.append({**row, "level": vocab.rank_label(c.level, lang),
                     "rooms": "/".join(names) + ("/…" if len(c.rooms) > 2 else "")})
    return rows


def human_replay_row(row: dict[str, Any], lang: str) -> dict[str, Any]:
    """A replayed deal for a person in ``lang``: the room by its name (开室), the finishing
    order in words (头游西、二游东: ``finish_said``, without the double down the result
    beside it names), the result in words (东西升3级（南北双下）), the status as a word;
    English keeps the records' tags and the seat letters."""
    if lang == "en":
        return row
    from duplicate.i18n import translator
    from duplicate.i18n.stored import finish_said

    t = translator(lang)
    out = dict(row)
    room = str(row.get("room") or "").lower()
    if room in ("open", "closed"):
        out["room"] = t(f"report.room.{room}")
    if row.get("finish"):
        out["finish"] = finish_said(str(row["finish"]), lang, side=False)
    out["result"] = state_words(row.get("result"), lang)
    out["status"] = cell_word(row.get("status"))
    return out


def human_seats_row(row: dict[str, Any], lang: str) -> dict[str, Any]:
    """A listing row for a person in ``lang``: finishing orders (``*_finish``) in words
    (头游北、二游南，东西双下: ``finish_said``) and the leader by its seat's name (北),
    the level as a player writes it (10, never T). English keeps the seat letters."""
    if lang == "en":
        return row
    from duplicate.i18n.game import rank_label, seat_name
    from duplicate.i18n.stored import finish_said
    from engine.cards import parse_level
    from engine.seat import Seat

    out = dict(row)
    for name, value in row.items():
        if name.endswith("finish") and value:
            out[name] = finish_said(str(value), lang)
        elif name == "leader" and str(value or "") in Seat.__members__:
            out[name] = seat_name(Seat[str(value)], lang)
    if isinstance(row.get("level"), str) and row["level"]:
        out["level"] = rank_label(parse_level(row["level"]), lang)
    return out


def human_correction_row(row: Any, zone: str = "UTC") -> dict[str, Any]:
    """A correction for a person: the results in words, the time to the minute in the
    event's ``zone``."""
    lang = cli_lang()
    out = dict(row)
    for name in ("before", "after"):
        out[name] = state_words(out.get(name), lang)
    if out.get("decision"):  # a board conceded, a match forfeited: the decision in words
        out["after"] = translator(lang)(str(out["decision"]), team=out.get("team"),
                                        board=out.get("board"))
    out["at"] = minute_text(out.get("at"), zone)
    out["by"] = who_said(out.get("by"), lang)  # "director" is 裁判, as ``event history`` says
    return out


def human_board_row(row: dict[str, Any], fmt: str) -> dict[str, Any]:
    """A board of a match as a listing row; for a person the level as a player writes it
    (10, never T; --json and --csv keep the record's rank letter)."""
    if fmt == "table" and row.get("level") == "T":
        row["level"] = "10"
    return row
