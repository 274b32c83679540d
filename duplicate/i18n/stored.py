"""The logs' words in the reader's language: what the program writes into a log row (a
detail, a reason, an action word) stored as a catalogue key and its values, said when
shown.

A text the program generates is stored by :func:`coded` (``@@key {"value": ...}``), never
as an English sentence, so that a Chinese page or ``--lang zh`` says it in Chinese;
:func:`said` puts a stored text into words: a coded phrase from the catalogue (a value
that is itself coded, ``{"@": key, ...}``, said the same way; a list of them one after
another; a name said in the language's quotes), one of the English sentences stored
before codes were (old databases) when it is known, anything else (a person's typed
words) as stored.

What the library keeps in English in a change (a result described as ``NS +2 (record
0123456789ab)``, ``unfinished (time)``; a reason it wrote itself, ``imported from
FILE:LINE: board 2, room Open``) is said in a player's words by :func:`state_words` and
:func:`reason_words`, as docs/GLOSSARY.md writes them; English, and any text a person
typed, stay as they are. The hall's reasons (a late team's ruling) and who did something
(``director``, ``table 3 open West``: :func:`who_key`) are stored and said the same way.
"""

from __future__ import annotations

import json
import re
from typing import Any

from duplicate.i18n.catalogue import (
    CatalogueError,
    Phrase,
    catalogue,
    gettext,
    normalise_language,
    translator,
)
from duplicate.i18n.game import finish_text, result_text
from engine.seat import Seat

#: What starts a coded phrase in a stored text.
MARK = "@@"

#: Values that are names: quoted as English ``repr`` does ('淮安队'), in Chinese “淮安队”.
_NAMES = frozenset({"team", "old", "new", "event", "set", "player"})

#: English sentences stored before codes were, with the key that says them.
_LEGACY: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^round (?P<round>\d+), board (?P<board>\d+)$"), "lw.detail.board"),
    (re.compile(r"^round (?P<round>\d+), table (?P<table>\d+), board (?P<board>\d+), "
                r"(?P<room>open|closed) room$"), "lw.where"),
    (re.compile(r"^round (?P<round>\d+), table (?P<table>\d+), board (?P<board>\d+)$"),
     "lw.where_board"),
    (re.compile(r"^round (?P<round>\d+), table (?P<table>\d+)$"), "lw.where_table"),
    (re.compile(r"^round (?P<round>\d+)$"), "lw.detail.round"),
    (re.compile(r"^round started$"), "lw.reason.started"),
    (re.compile(r"^round closed and scored$"), "lw.reason.closed"),
    (re.compile(r"^round published$"), "lw.reason.published"),
    (re.compile(r"^table cards issued$"), "lw.reason.tokens"),
    (re.compile(r"^West's report, confirmed by North$"), "lw.reason.table"),
    (re.compile(r"^reported without a record$"), "lw.reason.no_record"),
    (re.compile(r"^unfinished: (?P<reason>.+)$", re.S), "lw.reason.unfinished"),
    (re.compile(r"^(?P<reason>.*) \(accepted: (?P<who>.+?) reported (?P<order>.+?); its "
                r"reason: (?P<why>.*)\)$", re.S), "lw.reason.accepted_why"),
    (re.compile(r"^(?P<reason>.*) \(accepted: (?P<who>.+?) reported (?P<order>.+?)\)$", re.S),
     "lw.reason.accepted"),
    (re.compile(r"^(?P<before>UTC|[A-Za-z_]+/[A-Za-z0-9_+/-]+) -> "
                r"(?P<after>UTC|[A-Za-z_]+/[A-Za-z0-9_+/-]+)$"), "lw.detail.zone"),
    (re.compile(r"^round (?P<round>\d+): (?P<minutes>\d+) min, warning (?P<warning>\d+), "
                r"corrections (?P<corrections>\d+) min after the close$"), "lw.detail.start"),
    (re.compile(r"^(?P<team>.+) arrived (?P<minutes>\d+(?:\.\d+)?) minutes late$"),
     "hall.reason.late"),
)

#: A table's report of an unfinished board inside an old English sentence.
_GAVE_UP = re.compile(r"^unfinished \((?P<why>.*)\)$", re.S)

#: Why a board was not finished, as the phones (``time``) and the store (a record that
#: stops early: ``duplicate.store.calls.ENDS_EARLY``) store it, with the key that says it.
UNFINISHED = {"time": "lw.unfinished.time",
              "record ends before the deal": "lw.unfinished.ends_early"}


def coded(key: str, **values: Any) -> str:
    """A catalogue phrase as stored text (``@@key {"value": ...}``)."""
    return f"{MARK}{key} {json.dumps(values, ensure_ascii=False, sort_keys=True)}"


def nested(key: str, **values: Any) -> dict[str, Any]:
    """A phrase as a value of a coded phrase (said in the same language)."""
    return {"@": key, **values}


def term(english: str, key: str) -> dict[str, Any]:
    """A word as a value of a coded phrase: English as the library writes it (``late``),
    another language the catalogue's ``key`` (``desk.category.late``: 迟到)."""
    return {"@term": english, "key": key}


def who_code(by: str | None) -> dict[str, Any]:
    """Who did something as a value of a coded phrase (said by :func:`who_said`)."""
    return {"@who": by}


def unfinished_code(reason: str | None) -> dict[str, Any]:
    """Why a board was not finished as a value of a coded phrase (:func:`unfinished_said`)."""
    return {"@unfinished": reason}


def decoded(text: str | None) -> tuple[str, dict[str, Any]] | None:
    """The key and values of a stored phrase (coded, or an old English sentence known),
    or ``None`` when ``text`` is a person's own words."""
    if not text:
        return None
    if text.startswith(MARK):
        key, _, raw = text[len(MARK):].partition(" ")
        try:
            values = json.loads(raw) if raw else {}
        except ValueError:
            return None
        if key and isinstance(values, dict):
            return key, values
        return None
    for pattern, key in _LEGACY:
        m = pattern.match(text)
        if m:
            found: dict[str, Any] = m.groupdict()
            if key == "lw.reason.unfinished":  # why, as the phones' code or as typed
                found["reason"] = unfinished_code(found["reason"])
            if "who" in found:  # a table's seat, as the hall names it
                found["who"] = who_code(found["who"])
            gave_up = _GAVE_UP.match(found.get("order") or "")
            if gave_up:  # a table's report of an unfinished board
                found["order"] = nested("lw.said.unfinished_why",
                                        why=unfinished_code(gave_up["why"]))
            return key, found
    return None


def _value(name: str, value: Any, lang: str) -> Any:
    if isinstance(value, dict) and "@who" in value:  # who did it (table 1 open West)
        return who_said(value["@who"], lang)
    if isinstance(value, dict) and "@unfinished" in value:  # why a board was not finished
        return unfinished_said(value["@unfinished"], lang)
    if isinstance(value, dict) and isinstance(value.get("@term"), str):  # a word: english, key
        return value["@term"] if lang == "en" else gettext(lang, str(value.get("key")))
    if isinstance(value, dict) and isinstance(value.get("@"), str):
        inner = {k: _value(k, v, lang) for k, v in value.items() if k != "@"}
        return gettext(lang, value["@"], **inner)
    if isinstance(value, list):  # several phrases: one after another (; and ；)
        return gettext(lang, "lw.list.sep").join(str(_value(name, v, lang)) for v in value)
    if name == "room" and value in ("open", "closed") and lang != "en":
        return gettext(lang, f"hall.room.{value}")
    if name in ("order", "said") and isinstance(value, str) and lang != "en":  # a finish (N S)
        return finish_said(value, lang)
    if name == "where" and isinstance(value, str):  # a place the library wrote in English
        return said(value, lang)
    if name in _NAMES and isinstance(value, str):
        return repr(value) if lang == "en" else f"“{value}”"
    return value


def said(text: str | None, lang: str = "en") -> str | None:
    """A stored detail or reason in ``lang``: a coded phrase (or an old English sentence
    the program wrote) from the catalogue; a person's words, and a phrase whose key the
    catalogue does not know, as stored."""
    found = decoded(text)
    if found is None:
        return text
    code = normalise_language(lang)
    key, values = found
    try:
        return gettext(code, key, **{k: _value(k, v, code) for k, v in values.items()})
    except (CatalogueError, KeyError, ValueError, IndexError):
        return text


def reason_said(text: str | None, lang: str = "en") -> str:
    """Why a result changed, as stored, in ``lang``: a coded reason or a known old English
    one (:func:`said`), an import's source (:func:`reason_words`), typed words as
    typed."""
    code = normalise_language(lang)
    return reason_words(said(text, code), code) or ""


def action_said(action: str | None, lang: str = "en") -> str | None:
    """A log's action word (``rename team``, ``hall start``) in ``lang`` (the catalogue's
    ``cli.val.ACTION``); English, and a word it does not know, as stored."""
    code = normalise_language(lang)
    texts = catalogue().get(f"cli.val.{action}") if action else None
    return texts[code] if texts and code in texts and code != "en" else action


def unfinished_said(reason: str | None, lang: str = "en") -> str:
    """Why a board was not finished in ``lang``: a code the phones store (``time``) in
    words, a coded phrase from the catalogue, typed words as typed."""
    if reason in UNFINISHED:
        return gettext(normalise_language(lang), UNFINISHED[reason])
    return said(reason, lang) or ""


_TABLE = re.compile(r"^table (?P<table>\d+) (?P<room>open|closed) (?P<seat>North|West|Recorder)$")


def who_key(by: str | None) -> tuple[str, dict[str, Any]] | None:
    """The key and values that say who did something (``director``, a table's seat,
    ``table 3 open West``, the system's login ``root`` or ``unknown`` a command stores
    when no one is named), or ``None`` for any other name (said as stored)."""
    if by in ("director", "root", "unknown"):  # the desk; the login names a change may store
        return f"hall.who.{by}", {}                # (store.data.default_by)
    m = _TABLE.match(by or "")
    if m:
        return f"hall.who.{m['seat'].lower()}", {"table": int(m["table"]),
                                                  "room": f"hall.room.{m['room']}"}
    return None


def who_said(by: str | None, lang: str = "en") -> str | None:
    """Who did something in ``lang`` (``第1桌开室西家``); English, and a person's name, as
    stored."""
    code = normalise_language(lang)
    found = who_key(by)
    if found is None or code == "en":
        return by
    values = {k: gettext(code, v) if k == "room" else v for k, v in found[1].items()}
    return gettext(code, found[0], **values)


def finish_said(finish: str | None, lang: str = "en", side: bool = True) -> str:
    """A finishing order as stored (``N E S``; a double down's two seats ``N S``) in
    words, as players write it: ``头游北、二游东、三游南``; ``头游北、二游南，东西双下``
    (without ``side``, when the result shown with it names the double down already:
    ``头游北、二游南``). The one way the hall, the desk and the logs say a stored
    finishing order; anything that is not seat letters as stored."""
    names = (finish or "").split()
    if not names or not all(s in Seat.__members__ for s in names):
        return finish or ""
    seats = [Seat[s] for s in names]
    if side and len(seats) == 2 and seats[0].partner == seats[1]:  # the others double down
        rest = [s for s in Seat if s not in seats]
        return finish_text(seats + rest, lang, double_down=True)
    return finish_text(seats, lang)


def stored(value: Any) -> Any:
    """A value of a phrase as a coded phrase stores it: a catalogue phrase (``where``:
    ``round 1, table 2, board 3, open room``) as ``{"@": key, ...}``, said in the
    reader's language when shown; anything else as it is."""
    if isinstance(value, Phrase):
        return nested(value.key, **{k: stored(v) for k, v in value.values.items()})
    return value


class FinishText:
    """A finishing order as stored (``N S E``), a value of a catalogue phrase: in English
    the seat letters (``quoted``: as ``repr`` quotes what a player typed), in another
    language in words (:func:`finish_said`: ``头游北、二游南、三游东``; quoted “…”; without
    ``side`` a double down's side left out, where the phrase names the result already)."""

    __slots__ = ("finish", "quoted", "side")

    def __init__(self, finish: str, quoted: bool = False, side: bool = True) -> None:
        self.finish = finish
        self.quoted = quoted
        self.side = side

    def text(self, lang: str | None = "en") -> str:
        code = normalise_language(lang)
        if code == "en":
            return repr(self.finish) if self.quoted else self.finish
        words = finish_said(self.finish, code, self.side)
        return f"“{words}”" if self.quoted else words

    def __str__(self) -> str:
        return self.text("en")

    def __repr__(self) -> str:
        return f"FinishText({self.finish!r})"


class UnfinishedText:
    """Why a board was not finished as stored (``time``), a value of a catalogue phrase
    said in the reader's language (:func:`unfinished_said`)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str | None) -> None:
        self.reason = reason

    def text(self, lang: str | None = "en") -> str:
        return unfinished_said(self.reason, lang or "en")

    def __str__(self) -> str:
        return self.text("en")


class ResultText:
    """A room's N–S result, a value of a catalogue phrase: in English signed (``+2``, the
    phrase names N–S), in another language in a player's words (南北升2级)."""

    __slots__ = ("ns",)

    def __init__(self, ns: int) -> None:
        self.ns = ns

    def text(self, lang: str | None = "en") -> str:
        code = normalise_language(lang)
        return f"{self.ns:+d}" if code == "en" else result_text(self.ns, code)

    def __str__(self) -> str:
        return self.text("en")


_BOTS = re.compile(r"^bots round (\d+) table (\d+)(?::(\d+))?$")
_IMPORTED = re.compile(r"^imported from (.*?)(?:: board (\d+), room (\w+))?$")


def reason_words(text: str | None, lang: str) -> str | None:
    """A reason the library wrote for a change (``imported from FILE:LINE: board 2, room
    Open``) in ``lang``: ``导入自 FILE:LINE：第2副，开室``. A reason a person typed stays."""
    if lang == "en" or not text:
        return text
    m = _IMPORTED.match(text)
    if not m:
        return text
    t = translator(lang)
    source = m.group(1)
    bots = _BOTS.match(source)
    if bots:  # a round the bots played (``duplicate.events.bots``)
        source = (t("lw.reason.bots_line", round=bots[1], table=bots[2], line=bots[3])
                  if bots[3] else t("lw.reason.bots", round=bots[1], table=bots[2]))
    if m.group(2):
        room = m.group(3).lower()
        source = t("cli.reason.where", source=source, board=m.group(2),
                   room=t(f"report.room.{room}") if room in ("open", "closed") else m.group(3))
    return t("cli.reason.imported", source=source)


# --- the library's English descriptions of results, in words -----------------------

_STATE = re.compile(r"^(NS|EW) \+(\d)(?: \((.*)\))?$")
_UNFINISHED = re.compile(r"^unfinished \((.*)\)$")
_RECORD = re.compile(r"^record ([0-9a-f]+)$")


class StateText:
    """A stored result as the library describes it (``State.describe()``), a value of a
    catalogue phrase: English as it is, another language in a player's words
    (:func:`state_words`)."""

    __slots__ = ("english",)

    def __init__(self, english: str) -> None:
        self.english = english

    def text(self, lang: str | None = "en") -> str:
        return state_words(self.english, normalise_language(lang)) or self.english

    def __str__(self) -> str:
        return self.english

    def __repr__(self) -> str:
        return f"StateText({self.english!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StateText) and other.english == self.english

    def __hash__(self) -> int:
        return hash(self.english)


def state_words(text: str | None, lang: str) -> str | None:
    """A stored result as the library describes it (``NS +2 (record 0123456789ab)``,
    ``EW +3 (director's ruling)``, ``unfinished (time)``) in a player's words in ``lang``:
    ``南北升2级（牌谱 0123456789ab）``. English, and any other text, stay as they are."""
    if lang == "en" or not text:
        return text
    t = translator(lang)
    if text == "no result":
        return t("cli.no_result")
    m = _UNFINISHED.match(text)
    if m:
        return t("cli.state.unfinished", note=unfinished_said(m.group(1), lang))
    m = _STATE.match(text)
    if not m:
        return text
    ns = int(m.group(2)) * (1 if m.group(1) == "NS" else -1)
    words = result_text(ns, lang)
    note = m.group(3)
    if note is None:
        return words
    rec = _RECORD.match(note)
    if rec:
        note = t("cli.state.record", record=rec.group(1))
    elif note == "director's ruling" or note.startswith("director's ruling, finish "):
        note = t("cli.val.ruling")
    elif note.startswith("reported"):
        note = t("cli.val.report")
    return t("cli.state.noted", result=words, note=note)
