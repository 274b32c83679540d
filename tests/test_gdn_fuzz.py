"""Hostile input for the record reader and the replay (fuzzing with hypothesis).

The rule (docs/FORMAT.md "Errors"): bad input gets a :class:`GdnError` (or
:class:`ReplayError`) naming file, line, seat and reason, never a crash, an unrelated
exception, a hang or a silent acceptance. The properties mutate the golden example file
(26 deals played by OpenGuanDan) line by line, token by token and byte by byte, feed the
reader random text and the JSON reader malformed objects, and check that:

* the lenient reader raises nothing (a file that is not UTF-8 aside), every error it
  collects is located within the file and says why, and the strict reader raises the same
  first error;
* every deal read either replays or fails with an error located at a line;
* a played card the seat does not hold, or a play by the wrong seat, is always caught;
* whatever the reader accepts without error is written canonically, and the canonical text
  reads back to itself (``dumps(loads(x))`` is a fixed point).

The explicit examples at the end are the crashes and unclear errors the fuzzing found,
kept as regression tests.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duplicate import gdn
from duplicate.gdn import DealRecord, GdnError
from duplicate.replay import ReplayError, check_text, replay
from engine.cards import KIND_TOKENS, NUM_KINDS, count
from engine.combo import ComboType
from engine.seat import Seat, Side

GOLDEN = Path(__file__).parent / "golden" / "gdn" / "openguandan-26-deals.gdn"
TEXT = GOLDEN.read_text(encoding="utf-8")
LINES = TEXT.split("\n")
RECORDS = gdn.loads(TEXT, file="golden.gdn")
#: (record index, play index) of every play that is not a pass
PLAYED = [
    (r, p)
    for r, rec in enumerate(RECORDS)
    for p, play in enumerate(rec.plays or ())
    if not play.is_pass
]
#: line indexes (0-based) of the tag lines and of the play lines of the golden file
TAG_LINES = [i for i, line in enumerate(LINES) if line.startswith("[") and line != "[Play]"]
PLAY_LINES = [i for i, line in enumerate(LINES) if line[:2] in ("N ", "E ", "S ", "W ")]
#: an error message is one clear line: long input is quoted cut short
MAX_READ_MESSAGE = 400

FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces a record is made of, and pieces it is not: what a token is replaced with.
_VOCABULARY = [
    *(s.name for s in Seat),
    "n",
    "PASS",
    "pass",
    *(t.record_name for t in ComboType),
    "Quad",
    *"23456789TJQKABR",
    "10",
    "1",
    "0",
    "-1",
    *KIND_TOKENS,
    "s10",
    "X9",
    "SS",
    "[",
    "]",
    "[]",
    '"',
    "\\",
    "{",
    "}",
    "{x}",
    ";",
    "[Play]",
    '[Play "x"]',
    '[Finish "N S"]',
    '[Result "NS +2"]',
    '[Result "EW -5"]',
    '[Level "A"]',
    '[Leader "S"]',
    '[DealId "00"]',
    '[Deal "N:S2"]',
    "N:",
    "\x00",
    "\ufeff",
    "\r",
    "\t",
    "\u3000",
    "\u2028",
    "é",
    "𝄞",
    "",
]
#: characters that some readers take for line breaks or spaces, NUL, a BOM out of place
_CONTROLS = ["\x00", "\x00\x00", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\ufeff", "\t"]
_TOKEN = st.one_of(st.sampled_from(_VOCABULARY), st.text(max_size=6))
_UNICODE = st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=8)


def _line_index(draw: st.DrawFn, lines: list[str], among: list[int] | None = None) -> int:
    """A line of ``lines`` (one of ``among`` when those are still lines of it)."""
    if among:
        i = draw(st.sampled_from(among))
        if i < len(lines):
            return i
    return draw(st.integers(0, len(lines) - 1))


def _edit_token(line: str, index: int, new: str | None) -> str:
    """``line`` with its ``index``-th space-separated token replaced (``None``: dropped)."""
    toks = line.split(" ")
    i = index % len(toks)
    if new is None:
        del toks[i]
    else:
        toks[i] = new
    return " ".join(toks)


@st.composite
def mutated(draw: st.DrawFn) -> str | bytes:
    """The golden file with one to three mutations (some turn it into bytes)."""
    lines = list(LINES)
    as_bytes: bytes | None = None
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(
            st.sampled_from(
                [
                    "delete",
                    "duplicate",
                    "swap",
                    "drop token",
                    "change token",
                    "change card",
                    "change seat",
                    "change type",
                    "change rank",
                    "change tag value",
                    "insert unicode",
                    "insert line",
                    "control",
                    "long line",
                    "crlf",
                    "bom",
                    "truncate",
                ]
            )
        )
        if kind == "crlf":
            lines = [line + "\r" for line in lines]
            continue
        if kind == "bom":
            lines[0] = "\ufeff" + lines[0]
            continue
        if kind == "truncate":
            data = "\n".join(lines).encode("utf-8")
            as_bytes = data[: draw(st.integers(0, len(data)))]
            break
        at_play = kind.startswith("change") and kind != "change tag value"
        i = _line_index(
            draw,
            lines,
            PLAY_LINES if at_play else TAG_LINES if kind == "change tag value" else None,
        )
        line = lines[i]
        ntok = len(line.split(" "))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(draw(st.integers(0, len(lines))), line)
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "drop token":
            lines[i] = _edit_token(line, draw(st.integers(0, ntok)), None)
        elif kind == "change token":
            lines[i] = _edit_token(line, draw(st.integers(0, ntok)), draw(_TOKEN))
        elif kind == "change card":
            card = draw(st.sampled_from(KIND_TOKENS))
            lines[i] = _edit_token(line, draw(st.integers(3, max(3, ntok))), card)
        elif kind == "change seat":
            lines[i] = _edit_token(line, 0, draw(st.sampled_from("NESWX")))
        elif kind == "change type":
            new = draw(st.sampled_from([t.record_name for t in ComboType] + ["PASS", "Bombs"]))
            lines[i] = _edit_token(line, 1, new)
        elif kind == "change rank":
            lines[i] = _edit_token(line, 2, draw(st.sampled_from([*"23456789TJQKABR", "10"])))
        elif kind == "change tag value":
            name = line[1:].split(" ")[0]
            value = draw(st.one_of(_TOKEN, _UNICODE, st.sampled_from(["?", "NS 9", "N N"])))
            lines[i] = f'[{name} "{value}"]' if draw(st.booleans()) else f"[{name} {value}]"
        elif kind == "insert unicode":
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + draw(_UNICODE) + line[at:]
        elif kind == "insert line":
            lines.insert(i, draw(st.one_of(_TOKEN, _UNICODE)))
        elif kind == "control":
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + draw(st.sampled_from(_CONTROLS)) + line[at:]
        elif kind == "long line":
            n = draw(st.sampled_from([5_000, 50_000]))
            filler = draw(st.sampled_from([" ", "S2 ", "a", "{", '"', "\\", ";"]))
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + filler * (n // len(filler)) + line[at:]
    return as_bytes if as_bytes is not None else "\n".join(lines)


def _line_count(text: str | bytes) -> int:
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    return len(text.split("\n"))


def _assert_located(err: GdnError, lines: int, *, file: str = "f.gdn") -> None:
    """``err`` names the file, a line of it and a reason, in one line of text."""
    assert err.file == file
    assert err.line is not None and 1 <= err.line <= lines, (err.line, lines, str(err))
    assert err.reason.strip()
    assert "\n" not in str(err) and "\r" not in str(err)


def check_reading(text: str | bytes) -> list[DealRecord]:
    """Read ``text`` leniently and strictly and check the reader's promises; the records."""
    lines = _line_count(text)
    try:
        records = gdn.loads(text, file="f.gdn", strict=False)
    except GdnError as e:
        # only a file that is not UTF-8 is refused as a whole
        assert isinstance(text, bytes) and "not UTF-8" in e.reason and e.file == "f.gdn"
        return []
    errors = [e for rec in records for e in rec.errors]
    for rec in records:
        assert len(rec.errors) <= 1  # a deal's first error; the rest of the deal is skipped
        for err in rec.errors:
            assert type(err) is GdnError
            _assert_located(err, lines)
            assert len(str(err)) < MAX_READ_MESSAGE, str(err)
    if errors:
        with pytest.raises(GdnError) as info:
            gdn.loads(text, file="f.gdn", strict=True)
        assert str(info.value) == str(errors[0])  # the strict reader stops at the first
    else:
        assert len(gdn.loads(text, file="f.gdn", strict=True)) == len(records)
    return records


def check_replay(records: list[DealRecord], lines: int) -> None:
    """Replay every record read cleanly: it replays, or its error is located at a line."""
    for rec in records:
        res = replay(rec)
        if not rec.ok:
            assert res.error is rec.errors[0]  # a record with errors never replays as valid
            continue
        if res.error is not None:
            assert isinstance(res.error, GdnError)
            _assert_located(res.error, lines)
            continue
        check_fixed_point(res.record)


def check_fixed_point(rec: DealRecord) -> None:
    """A record read without error is written canonically, and that text reads back to
    the same canonical text (``dumps(loads(x))`` is a fixed point)."""
    out = gdn.dumps(rec)
    again = gdn.loads(out)
    assert len(again) == 1 and again[0].ok
    assert gdn.dumps(again) == out
    assert gdn.to_json(again[0]) == gdn.to_json(rec)


# --- properties -----------------------------------------------------------------------


@FUZZ
@given(mutated())
def test_mutated_golden_file_reads_and_replays_with_located_errors(text: str | bytes) -> None:
    records = check_reading(text)
    check_replay(records, _line_count(text))


@FUZZ
@given(mutated())
def test_whatever_is_read_without_error_is_a_fixed_point(text: str | bytes) -> None:
    """Records read cleanly with every play typed are written and read back unchanged,
    one by one and as a file."""
    try:
        records = gdn.loads(text, strict=False)
    except GdnError:
        return
    ok = [r for r in records if r.ok and all(p.is_pass or p.type for p in r.plays or ())]
    for rec in ok:
        check_fixed_point(rec)
    out = gdn.dumps(ok)
    assert gdn.dumps(gdn.loads(out)) == out


@FUZZ
@given(mutated())
def test_split_deals_pieces_read_as_the_whole(text: str | bytes) -> None:
    """Cutting a file into deals (how big inputs are spread over processes) changes no
    record and no error, whatever the input; ``guandan replay``'s check reports them."""
    try:
        whole = gdn.loads(text, file="f.gdn", strict=False)
    except GdnError:
        (report,) = check_text(text, file="f.gdn")  # the file as a whole is refused
        assert report.status == "error" and "not UTF-8" in (report.error or "")
        return
    pieces = [
        rec
        for first, piece in gdn.split_deals(text, file="f.gdn")
        for rec in gdn.loads(piece, file="f.gdn", strict=False, first_line=first)
    ]
    assert [str(e) for r in pieces for e in r.errors] == [str(e) for r in whole for e in r.errors]
    assert [(r.line, r.tags, r.hands, r.plays) for r in pieces] == [
        (r.line, r.tags, r.hands, r.plays) for r in whole
    ]
    reports = check_text(text, file="f.gdn")
    assert [(r.line, r.status == "error") for r in reports] == [
        (r.line, replay(r).error is not None) for r in whole
    ]


def _holding(rec: DealRecord, upto: int, seat: Seat) -> int:
    """The cards ``seat`` holds before play ``upto`` of ``rec``."""
    hand = rec.hands[seat]
    for play in (rec.plays or [])[:upto]:
        if play.seat == seat:
            hand -= play.cards
    return hand


def _with_line(number: int, new: str) -> str:
    lines = list(LINES)
    lines[number - 1] = new
    return "\n".join(lines)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PLAYED), st.data())
def test_a_card_the_seat_does_not_hold_is_always_caught(
    where: tuple[int, int], data: st.DataObject
) -> None:
    r, p = where
    rec = RECORDS[r]
    play = (rec.plays or [])[p]
    held = _holding(rec, p, play.seat)
    missing = [k for k in range(NUM_KINDS) if count(held, k) == 0]
    new = data.draw(st.sampled_from(missing))
    toks = LINES[play.line - 1].split(" ")  # type: ignore[operator]
    toks[data.draw(st.integers(3, len(toks) - 1))] = KIND_TOKENS[new]
    assert play.line is not None
    text = _with_line(play.line, " ".join(toks))
    changed = gdn.loads(text, file="f.gdn")[r]  # reads: a card is no read error
    res = replay(changed)
    assert isinstance(res.error, ReplayError)
    assert res.error.line == play.line and res.error.seat == play.seat
    assert f"does not hold {KIND_TOKENS[new]}" in res.error.reason
    assert res.error.position  # the engine's one-line picture of the deal


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(PLAYED), st.data())
def test_a_play_by_the_wrong_seat_is_always_caught(
    where: tuple[int, int], data: st.DataObject
) -> None:
    r, p = where
    play = (RECORDS[r].plays or [])[p]
    assert play.line is not None
    other = data.draw(st.sampled_from([s for s in Seat if s != play.seat]))
    text = _with_line(play.line, other.name + LINES[play.line - 1][1:])
    res = replay(gdn.loads(text, file="f.gdn")[r])
    assert isinstance(res.error, ReplayError)
    assert res.error.line == play.line and res.error.seat == other


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(), st.text(st.characters(max_codepoint=0x7F)), st.binary()))
def test_random_text_never_crashes_the_reader(text: str | bytes) -> None:
    check_replay(check_reading(text), _line_count(text))


_RECORD_WORDS = st.sampled_from(
    [w for w in _VOCABULARY if w] + ["[Level", '"2"]', "[Leader", "N]", "[Deal", '"N:', "E:"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_RECORD_WORDS, max_size=8).map(" ".join), max_size=20).map("\n".join))
def test_random_records_of_record_words_never_crash_the_reader(text: str) -> None:
    """Text made of the words records are made of goes deeper into the reader."""
    check_replay(check_reading(text), _line_count(text))


# --- the JSON form --------------------------------------------------------------------

#: the JSON objects of the first three golden deals, their plays typed
JSON_OBJECTS = [gdn.to_json(replay(rec).record) for rec in RECORDS[:3]]
_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 10**30)
    | st.floats(allow_nan=True)
    | st.sampled_from(["", "N", "NS", "EW", "2", "A", "S2", "SB", "Single", "PASS"])
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=6) | st.integers(0, 3), inner)
    ),  # int keys: Python only
    max_leaves=6,
)


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON object (the root included)."""
    out = [path]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*path, i))
    return out


@st.composite
def mutated_json(draw: st.DrawFn) -> Any:
    """A golden deal's JSON object with a value replaced, deleted or a key added."""
    obj = json.loads(json.dumps(draw(st.sampled_from(JSON_OBJECTS))))
    for _ in range(draw(st.integers(1, 2))):
        path = draw(st.sampled_from(_paths(obj)))
        if not path:
            return draw(_JSON_VALUES)
        parent = obj
        for k in path[:-1]:
            parent = parent[k]
        action = draw(st.sampled_from(["replace", "delete", "add key"]))
        if action == "replace":
            parent[path[-1]] = draw(_JSON_VALUES)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            key = draw(st.sampled_from(["pass", "cards", "type", "rank", "seat", "side", "x", 1]))
            parent[key] = draw(_JSON_VALUES)
    return obj


@settings(max_examples=200, deadline=None)
@given(mutated_json())
def test_json_form_rejects_malformed_objects_with_gdn_error(obj: Any) -> None:
    try:
        rec = gdn.from_json(obj, file="d.json")
    except GdnError as e:
        assert e.file == "d.json" and e.reason.startswith("JSON: ")
        assert "\n" not in str(e)
        return
    # accepted: it is a deal the .gdn text can hold, and it reads back to itself
    if all(p.is_pass or p.type is not None for p in rec.plays or ()):
        check_fixed_point(rec)
        assert gdn.to_json(gdn.from_json(gdn.to_json(rec))) == gdn.to_json(rec)
    replay(rec)  # never raises


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.text(), st.binary(), mutated_json().map(json.dumps)))
def test_json_text_never_crashes_the_reader(text: str | bytes) -> None:
    try:
        gdn.loads_json(text, file="d.json")
    except GdnError as e:
        assert e.file == "d.json" and e.reason.startswith("JSON: ")


# --- regression examples: what the fuzzing found --------------------------------------


def _read_error(text: str) -> GdnError:
    """The single error of one deal read leniently (after checking the reader's promises)."""
    records = check_reading(text)
    assert len(records) == 1 and len(records[0].errors) == 1
    return records[0].errors[0]


@pytest.mark.parametrize("filler", [" ", "\t", "\u3000"])
def test_a_long_run_of_spaces_in_a_tag_line_is_no_hang(filler: str) -> None:
    # the tag pattern backtracked in cubic time: 2,000 spaces took 9 s
    start = time.perf_counter()
    # (9,000: the longest line read is gdn.MAX_LINE characters; longer is refused as such)
    err = _read_error("[Event" + filler * 9_000 + "x")
    assert time.perf_counter() - start < 1.0
    assert err.line == 1 and "malformed tag line '[Event" in err.reason
    assert "(9007 characters)" in err.reason  # quoted cut short, its length given
    err = _read_error("[Event" + filler * 100_000 + "x")
    assert err.line == 1 and "the line has more than 10,000 characters" in err.reason


def test_bare_and_quoted_tag_values_still_read() -> None:
    records = gdn.loads(
        '[ Event   Cup 2026 ]\n[Round]\n[Board"7"]\n[Annotator "a \\"b\\" \\\\"]\n'
        + "\n".join(LINES[2:5]),
        strict=True,
    )
    assert records[0].tags == {
        "Event": "Cup 2026",
        "Round": "",
        "Board": "7",
        "Annotator": 'a "b" \\',
    }
    for bad in ['[Event "a" x]', "[Event a]b]", '[Event a"b]', "[1x]", "[]", "[Event"]:
        assert "malformed tag line" in _read_error(bad + "\n" + "\n".join(LINES[2:5])).reason


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("EW +\t3", None),  # int() refused "+\t3": a ValueError
        ("NS -\u30003", None),
        ("EW +" + "9" * 900, "1 to 4 levels"),
        ("EW +" + "9" * 5000, "at most 1,000"),  # int() would refuse more than 4300 digits
        ("EW" + " " * 900 + "+", "expected a side and its levels"),
        ("EW" + " " * 20_000 + "+", "the line has more than 10,000 characters"),
    ],
)
def test_result_values_that_crashed(value: str, reason: str | None) -> None:
    text = TEXT.split("\n\n")[0]
    assert '[Result "EW +3"]' in text
    text = text.replace('[Result "EW +3"]', f'[Result "{value}"]')
    if reason is None:
        assert gdn.loads(text)[0].result == (Side.EW, 3)
        assert replay(gdn.loads(text)[0]).ok
        return
    err = _read_error(text)
    assert reason in err.reason and len(str(err)) < MAX_READ_MESSAGE


def test_long_bad_values_are_quoted_short() -> None:
    board = "\n".join(LINES[:5])
    for n in (900, 100_000):  # under and over the longest tag value and line
        for old, new in [('"2"]', '"' + "x" * n + '"]'), ('"E"]', '"' + "W" * n + '"]')]:
            err = _read_error(board.replace(old, new, 1))
            assert len(str(err)) < MAX_READ_MESSAGE and err.line in (3, 4)
    play = board + "\n[Play]\nE " + "SQ" * 4_000
    err = _read_error(play)
    assert err.line == 7 and err.seat == Seat.E and len(str(err)) < MAX_READ_MESSAGE


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ('[Event "a\rb"]', 1),  # read, then refused by the writer: no fixed point
        ('[Event "a"] {x\ry}', 1),
        ("[Board 1\r]", 2),
    ],
)
def test_a_carriage_return_inside_a_line_is_an_error(line: str, where: int) -> None:
    lines = list(LINES[:8])
    lines[where - 1] = line
    err = _read_error("\n".join(lines))
    assert err.line == where and "carriage return (CR) inside a line" in err.reason
    # a CR at the end of a line is a CRLF line end
    assert gdn.loads("\r\n".join(LINES[:8]))[0].ok


def test_play_tag_with_a_value_is_an_error() -> None:
    # [Play "x"] was read as [Play], its value silently dropped
    text = "\n".join(LINES[:5]) + '\n[Play "x"]\nE PASS'
    err = _read_error(text)
    assert err.line == 6 and "[Play] takes no value, not 'x'" in err.reason
    assert gdn.loads(text.replace('[Play "x"]', '[Play ""]'))[0].ok


def test_only_the_first_error_of_a_deal_is_kept() -> None:
    # an unclosed { after the deal's first error was recorded as a second error
    err = _read_error("N\n{")
    assert err.line == 1 and "before [Play]" in err.reason


@pytest.mark.parametrize("data", [TEXT, TEXT.encode("utf-8")])
def test_several_byte_order_marks_read_alike_whole_and_in_pieces(data: str | bytes) -> None:
    # split_deals stripped one BOM more than reading the whole did: the pieces read cleanly
    # while the whole had an error on line 1
    bom = "\ufeff" * 3
    text = bom + data if isinstance(data, str) else bom.encode("utf-8") + data
    whole = gdn.loads(text, strict=False)
    assert len(whole) == 26 and all(r.ok for r in whole)
    pieces = gdn.split_deals(text)
    assert pieces[0][1].startswith("[Event")
    assert gdn.loads(pieces[0][1], first_line=pieces[0][0])[0].tags == whole[0].tags


def test_deeply_nested_json_is_a_gdn_error() -> None:
    # json's decoder recursed until RecursionError, which is no ValueError
    for text in ("[" * 100_000, '{"a":' * 100_000):
        with pytest.raises(GdnError, match="nested too deeply"):
            gdn.loads_json(text, file="d.json")


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        # silently accepted before: read as something else, or not writable back
        (lambda o: o.update(result={"side": "NS", "levels": -2}), "invalid Result levels -2"),
        (lambda o: o.update(result={"side": "N-S", "levels": 2}), "invalid Result side"),
        (lambda o: o.update(result={"side": "NS", "levels": True}), "'result' is"),
        (lambda o: o.update(result={"side": "NS", "levels": 2, "x": 1}), "'result' is"),
        (lambda o: o.update(finish=["N S", "E"]), "'finish' is a list of seats"),
        (lambda o: o["plays"][0].update(x=1), "play 1: unknown key(s) x"),
        (lambda o: o["plays"][6].update(type="Single"), "a pass has no cards, type or rank"),
        (lambda o: o["plays"][0].update({"pass": "yes"}), "'pass' is true, false or absent"),
        (lambda o: o["tags"].update(board="9"), "tag 'board' is written 'Board'"),
        (lambda o: o["tags"].update(level="9"), "tag Level is a key of its own"),
        (lambda o: o["tags"].update(play="x"), "Play is no tag"),
        (lambda o: o["tags"].update({"1x": "y"}), "invalid tag name '1x'"),
        (lambda o: o["tags"].update(Event="a\nb"), "holds a line break"),
        (lambda o: o.update(level="7" * 100_000), "invalid rank '7777"),
    ],
)
def test_json_values_that_were_accepted_or_unclear(mutate: Any, reason: str) -> None:
    obj = json.loads(json.dumps(JSON_OBJECTS[0]))
    assert obj["plays"][6].get("pass") is True
    mutate(obj)
    with pytest.raises(GdnError, match="JSON: ") as info:
        gdn.from_json(obj, file="d.json")
    assert reason in info.value.reason and len(str(info.value)) < MAX_READ_MESSAGE


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        # a dict made in Python may have keys JSON text cannot: TypeError when sorting them
        ({1: 2}, "unknown key(s) 1"),
        ({"hands": {**JSON_OBJECTS[0]["hands"], 1: []}}, "'hands' maps each of N, E, S, W"),
    ],
)
def test_python_objects_with_keys_json_cannot_have(change: dict[Any, Any], reason: str) -> None:
    with pytest.raises(GdnError) as info:
        gdn.from_json({**JSON_OBJECTS[0], **change})
    assert reason in info.value.reason


def test_parse_cards_fast_names_a_long_bad_token_briefly() -> None:
    with pytest.raises(GdnError) as info:
        gdn.from_json(
            {**JSON_OBJECTS[0], "hands": {"N": ["S" * 10_000], "E": [], "S": [], "W": []}}
        )
    assert "invalid card 'SSSS" in str(info.value) and len(str(info.value)) < 300


def test_an_unknown_key_with_a_newline_stays_on_one_line() -> None:
    """Found by hypothesis: ``{"\\n": null}`` named its key raw, breaking the message."""
    with pytest.raises(GdnError) as exc:
        gdn.from_json({"\n": None, "Odd": 1}, file="d.json")
    assert "\n" not in str(exc.value)
    assert "unknown key(s) '\\n', Odd" in str(exc.value)
