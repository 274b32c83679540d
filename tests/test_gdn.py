"""The ``.gdn`` format: golden round trips, lenient reading, errors, the JSON form."""

from __future__ import annotations

import io
import json
import pickle
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate import gdn
from duplicate.errors import DuplicateError
from duplicate.gdn import DealRecord, GdnError, Play
from engine.cards import FULL_PACK, KIND_BIT, NUM_CARDS, from_ids, parse_cards, to_tokens
from engine.combo import ComboType
from engine.seat import Seat, Side

GOLDEN = Path(__file__).parent / "golden" / "gdn"
CANONICAL = GOLDEN / "canonical.gdn"
EXAMPLE = GOLDEN / "openguandan-26-deals.gdn"


def _canonical_text() -> str:
    return CANONICAL.read_text(encoding="utf-8")


def _board_text(extra_tags: str = "", plays: str | None = None, tail: str = "") -> str:
    """A small valid deal: the first deal of the canonical golden file, re-tagged."""
    rec = gdn.loads(_canonical_text())[0]
    deal = gdn.format_hands(rec.hands)
    out = f'[Board "9"]\n[Level "5"]\n[Leader "N"]\n[Deal "{deal}"]\n{extra_tags}'
    if plays is not None:
        out += "[Play]\n" + plays
    return out + tail


# --- golden files -------------------------------------------------------------------


def test_canonical_round_trip_is_byte_identical() -> None:
    text = _canonical_text()
    records = gdn.load(io.StringIO(text))
    assert len(records) == 3
    assert gdn.dumps(records) == text


def test_canonical_file_content() -> None:
    played, double_down, hand_record = gdn.loads(_canonical_text(), file="canonical.gdn")
    assert played.tags["Event"] == 'Huai\'an Teams Cup "Spring"'
    assert list(played.tags)[-2:] == ["Annotator", "TimeControl"]  # unknown tags kept in order
    assert played.level == 3 and played.leader == Seat.N  # level "5" is rank index 3
    assert played.finish == (Seat.S, Seat.E, Seat.W, Seat.N)
    assert played.result == (Side.NS, 1)
    assert played.comments == ["semi-final, first half"]
    assert played.plays is not None and played.plays[0].comments == ["N leads low"]
    assert played.plays[5].is_pass
    assert played.plays[5].comments == ["a pass; {not} a bomb", "second comment"]
    assert played.lines["Play"] == 18 and played.plays[0].line == 19
    assert double_down.finish == (Seat.N, Seat.S) and double_down.result == (Side.NS, 3)
    assert hand_record.plays is None and hand_record.finish is None
    assert sum(hand_record.hands) == FULL_PACK


def test_lenient_input_normalises_to_canonical() -> None:
    """BOM, CRLF, {…} and ; comments, any tag order, lower case, blank lines, unquoted values,
    cards in any order."""
    raw = (GOLDEN / "lenient.gdn").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    records = gdn.loads(raw, file="lenient.gdn")
    assert all(r.ok for r in records)
    assert gdn.dumps(records) == _canonical_text()


def test_json_form_round_trip_and_golden() -> None:
    records = gdn.loads(_canonical_text())
    objs = [gdn.to_json(r) for r in records]
    assert objs == json.loads((GOLDEN / "canonical.json").read_text(encoding="utf-8"))
    back = [gdn.from_json(o) for o in json.loads(json.dumps(objs))]
    assert gdn.dumps(back) == _canonical_text()
    assert objs[0]["plays"][3] == {"seat": "W", "pass": True}
    assert objs[0]["plays"][0]["comments"] == ["N leads low"]
    assert objs[1]["result"] == {"side": "NS", "levels": 3}
    assert objs[2]["plays"] is None
    # the file form: one JSON array, the golden file byte for byte
    assert gdn.dumps_json(records) == (GOLDEN / "canonical.json").read_text(encoding="utf-8")
    assert gdn.dumps(gdn.loads_json(gdn.dumps_json(records))) == _canonical_text()
    assert gdn.dumps(gdn.loads_json(json.dumps(objs[2]))) == gdn.dumps(records[2])
    with pytest.raises(GdnError, match="not valid JSON") as info:
        gdn.loads_json('[{"tags": }]', file="bad.json")
    assert info.value.file == "bad.json" and info.value.line == 1


def test_example_file_reads_and_plays_are_normalised() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    records = gdn.loads(text, file=EXAMPLE.name)
    assert len(records) == 26
    assert [r.board for r in records] == [str(i) for i in range(1, 27)]
    # the example lists cards in level order; canonical text only reorders them
    out = gdn.dumps(records).splitlines()
    src = text.splitlines()
    assert len(out) == len(src)
    for a, b in zip(src, out, strict=True):
        if a.startswith("[Deal "):
            assert sorted(a[7:-2].replace(":", ": ").split()) == sorted(
                b[7:-2].replace(":", ": ").split()
            )
        elif a.startswith("["):
            assert a == b
        else:
            assert a.split()[:3] == b.split()[:3] and sorted(a.split()) == sorted(b.split())


# --- reading details ----------------------------------------------------------------


def test_play_without_type_and_rank_is_read() -> None:
    rec = gdn.loads(_board_text(plays="N h2 c2\nE pass\n"))[0]
    assert rec.plays == [
        Play(Seat.N, parse_cards("H2 C2"), None, None, 6),
        Play(Seat.E, 0, None, None, 7),
    ]


def test_writing_needs_type_and_rank() -> None:
    rec = gdn.loads(_board_text(plays="N H2 C2\n"))[0]
    with pytest.raises(GdnError, match="type and rank") as info:
        gdn.dumps(rec)
    assert info.value.line == 6 and info.value.seat == Seat.N


def test_cards_are_written_in_natural_order() -> None:
    """Rank 2..A then the jokers, suits S H C D within a rank, whatever the level."""
    rec = gdn.loads(_board_text(plays="N Straight A C5 S2 D4 SA D3\nE Pair 5 HR C5 sb H5\n"))[0]
    text = gdn.dumps(rec)
    assert "\nN Straight A S2 D3 D4 C5 SA\n" in text
    assert "\nE Pair 5 H5 C5 SB HR\n" in text  # level 5 is not lifted when writing
    assert f'[Deal "{gdn.format_hands(rec.hands)}"]' in text
    assert gdn.format_hands(rec.hands).startswith("N:H2 H2 C2 C2 D2 S3 ")


def test_deals_without_blank_lines_and_hand_records_with_them() -> None:
    one = _board_text(plays="N PASS\n", tail='[Result "NS +1"]\n')
    text = one + one + "\n\n" + _board_text() + "\n" + _board_text()
    records = gdn.loads(text)
    assert [r.plays is not None for r in records] == [True, True, False, False]
    assert [r.line for r in records] == [1, 8, 17, 22]
    assert records[1].result == (Side.NS, 1)


def test_blank_lines_inside_a_deal_and_comments_before_it() -> None:
    text = "; a file comment\n\n" + _board_text(
        extra_tags='[Annotator "x"]\n', plays="\nN PASS\n\n{why}\n", tail='\n[Finish "N S"]\n'
    )
    (rec,) = gdn.loads(text)
    assert rec.comments == ["a file comment"]
    assert rec.tags["Annotator"] == "x"
    assert rec.plays is not None and rec.plays[0].comments == ["why"]
    assert rec.finish == (Seat.N, Seat.S)


def test_unknown_values_and_lenient_result() -> None:
    rec = gdn.loads(_board_text(extra_tags='[Finish "?"]\n[Result "EW -2"]\n[Event "?"]\n'))[0]
    assert rec.finish is None and rec.result == (Side.NS, 2)
    assert rec.tags["Event"] == "?"


# --- errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "seat", "reason"),
    [
        (_board_text(plays="N Single 5 S5\nE Single 6 X6\n"), 7, Seat.E, "invalid card 'X6'"),
        (_board_text(plays="N Single S5\n"), 6, Seat.N, "Single without a rank"),
        (_board_text(plays="N 5 S5\n"), 6, Seat.N, "rank '5' without a combination type"),
        (_board_text(plays="Q Single 5 S5\n"), 6, None, "starts with a seat"),
        (_board_text(plays="N\n"), 6, Seat.N, "has cards, or is PASS"),
        (_board_text(plays="N PASS S5\n"), 6, Seat.N, "PASS with 'S5' after it"),
        (_board_text(plays="N Strait 3 S3 S4 S5 S6 S7\n"), 6, Seat.N, "unknown combination type"),
        (_board_text(plays="N Single 5 S5 {oops\n"), 6, None, "unclosed '{'"),
        (_board_text(plays="N Single 5 S5 S5 S5\n"), 6, Seat.N, "more than twice"),
        (_board_text(extra_tags="N Single 5 S5\n"), 5, None, "before [Play]"),
        (_board_text(extra_tags='[Foo "x"\n'), 5, None, "malformed tag"),
        (_board_text(extra_tags='[Result "NS +7"]\n'), 5, None, "1 to 4 levels"),
        (_board_text(extra_tags='[Result "north"]\n'), 5, None, "invalid Result"),
        (_board_text(extra_tags='[Finish "N N"]\n'), 5, None, "twice in Finish"),
        (
            _board_text(plays="N PASS\n", tail='[Result "NS +1"]\nN PASS\n'),
            8,
            None,
            "after the Result tag of line 7",
        ),
        (_board_text(plays="", tail="[Play]\n"), 6, None, "second [Play]"),
        ('[Level "Z"]\n', 1, None, "Level: invalid rank 'Z'"),
        ('[Leader "X"]\n', 1, None, "invalid seat 'X'"),
        ('[Level "2"]\n[Leader "N"]\n', 1, None, "no Deal tag"),
        ('[Level "2"]\n[Leader "N"]\n[Deal "N:S2 E:S3 S:S4"]\n', 3, None, "no hand for W"),
        ('[Deal "N:S2 N:S3"]\n', 1, Seat.N, "hand of N twice"),
        ('[Deal "x N:S2"]\n', 1, None, "starts with 'x'"),
        ('[Deal "N:S2 S9 E:ZZ"]\n', 1, Seat.E, "in the hand of E: invalid card 'ZZ'"),
    ],
)
def test_errors_name_file_line_seat_and_reason(
    text: str, line: int, seat: Seat | None, reason: str
) -> None:
    with pytest.raises(GdnError) as info:
        gdn.loads(text, file="t.gdn")
    err = info.value
    assert isinstance(err, DuplicateError)
    assert (err.file, err.line, err.seat) == ("t.gdn", line, seat)
    assert reason in err.reason
    where = f"t.gdn:{line}:" + (f" seat {seat.name}:" if seat else "")
    assert str(err).startswith(where)


def test_hand_sizes_and_full_pack_are_checked() -> None:
    rec = gdn.loads(_canonical_text())[2]
    n, e, s, w = rec.hands
    moved = KIND_BIT[to_tokens_kind(n)]
    short = (
        f'[Level "2"]\n[Leader "N"]\n[Deal "{gdn.format_hands((n - moved, e + moved, s, w))}"]\n'
    )
    with pytest.raises(GdnError, match="hand of N has 26 cards") as info:
        gdn.loads(short)
    assert info.value.line == 3 and info.value.seat == Seat.N
    doubled = gdn.format_hands((n, n, s, w))
    with pytest.raises(GdnError, match="two packs of 108"):
        gdn.loads(f'[Level "2"]\n[Leader "N"]\n[Deal "{doubled}"]\n')


def to_tokens_kind(cards: int) -> int:
    """The kind of the first card of ``cards`` (helper for building bad hands)."""
    from engine.cards import TOKEN_KINDS

    return TOKEN_KINDS[to_tokens(cards)[0]]


def test_lenient_collects_errors_and_goes_on_strict_stops_at_first() -> None:
    bad1 = _board_text(plays="N Single 5 ZZ\nE PASS\n")
    good = _board_text(plays="N PASS\n")
    bad3 = _board_text(extra_tags='[Finish "N X"]\n')
    text = "\n\n".join([bad1, good, bad3])
    records = gdn.loads(text, file="f.gdn", strict=False)
    assert len(records) == 3
    assert [len(r.errors) for r in records] == [1, 0, 1]
    assert records[0].errors[0].line == 6 and records[0].errors[0].seat == Seat.N
    assert records[2].errors[0].line == 5 + bad1.count("\n") + 2 + good.count("\n") + 2
    assert records[1].ok and records[1].plays is not None and len(records[1].plays) == 1
    with pytest.raises(GdnError) as info:
        gdn.loads(text, file="f.gdn")
    assert info.value.line == 6
    with pytest.raises(GdnError, match="invalid card"):
        gdn.dumps(records[0])  # a record read with errors is never written


def test_not_utf8_is_an_error() -> None:
    with pytest.raises(GdnError, match="not UTF-8") as info:
        gdn.loads(b'[Event "\xff"]\n', file="x.gdn")
    assert info.value.file == "x.gdn"


def test_error_pickles_across_processes() -> None:
    err = GdnError("bad", file="a.gdn", line=3, seat=Seat.W)
    back = pickle.loads(pickle.dumps(err))
    assert (back.reason, back.file, back.line, back.seat, str(back)) == (
        "bad",
        "a.gdn",
        3,
        Seat.W,
        "a.gdn:3: seat W: bad",
    )


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (lambda o: o.update(level=5), "'level' is a string"),
        (lambda o: o.update(extra=1), "unknown key(s) extra"),
        (lambda o: o["tags"].update(Level="2"), "tag Level is a key of its own"),
        (lambda o: o["hands"].pop("W"), "'hands' maps each"),
        (lambda o: o["hands"].update(N=["S2"]), "hand of N has 1 cards"),
        (lambda o: o["plays"][0].update(type="Blob"), "unknown combination type 'Blob'"),
        (lambda o: o["plays"][0].pop("rank"), "both 'type' and 'rank'"),
        (lambda o: o["plays"][0].update(cards=["Q9"]), "invalid card 'Q9'"),
        (lambda o: o["plays"][3].update(cards=["S2"]), "a pass has no cards"),
        (lambda o: o.update(result={"side": "NE", "levels": 1}), "invalid Result"),
        (lambda o: o.update(finish="N S"), "'finish' is a list"),
    ],
)
def test_from_json_validates(mutate: object, reason: str) -> None:
    obj = gdn.to_json(gdn.loads(_canonical_text())[0])
    mutate(obj)  # type: ignore[operator]
    with pytest.raises(GdnError, match="JSON: ") as info:
        gdn.from_json(obj, file="d.json")
    assert reason in str(info.value) and info.value.file == "d.json"


# --- property: any record the writer can write reads back to itself -------------------

# in NFC: names are read (and written) in NFC, so only NFC text reads back as itself
_TAG_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=12).map(
    lambda t: unicodedata.normalize("NFC", t)
)


@st.composite
def records(draw: st.DrawFn) -> DealRecord:
    ids = draw(st.permutations(range(NUM_CARDS)))
    hands = tuple(from_ids(ids[27 * i : 27 * (i + 1)]) for i in range(4))
    tags = draw(
        st.dictionaries(
            st.sampled_from(["Event", "Room", "North", "Zz_1", "Note"]), _TAG_TEXT, max_size=4
        )
    )
    plays: list[Play] | None = None
    if draw(st.booleans()):
        plays = []
        for _ in range(draw(st.integers(0, 6))):
            seat = draw(st.sampled_from(list(Seat)))
            if draw(st.booleans()):
                plays.append(Play(seat, 0))
                continue
            cards = from_ids(
                draw(st.lists(st.integers(0, NUM_CARDS - 1), min_size=1, max_size=6, unique=True))
            )
            plays.append(
                Play(
                    seat,
                    cards,
                    draw(st.sampled_from(list(ComboType))),
                    draw(st.integers(0, 14)),
                    comments=draw(st.lists(_TAG_TEXT.map(str.strip), max_size=2)),
                )
            )
    return DealRecord(
        tags=tags,
        hands=hands,  # type: ignore[arg-type]
        level=draw(st.integers(0, 12)),
        leader=draw(st.sampled_from(list(Seat))),
        plays=plays,
        finish=draw(st.none() | st.permutations(list(Seat)).map(tuple)),
        result=draw(st.none() | st.tuples(st.sampled_from(list(Side)), st.integers(1, 4))),
        comments=draw(st.lists(_TAG_TEXT.map(str.strip), max_size=2)),
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(records(), min_size=1, max_size=3))
def test_dump_load_dump_is_identity(recs: list[DealRecord]) -> None:
    text = gdn.dumps(recs)
    back = gdn.loads(text)
    assert gdn.dumps(back) == text
    assert [r.tags for r in back] == [r.tags for r in recs]
    assert [r.hands for r in back] == [r.hands for r in recs]
    assert [gdn.to_json(r) for r in back] == [gdn.to_json(r) for r in recs]


def test_board_set_hand_records_are_canonical() -> None:
    """Hand records written by ``duplicate.boards`` read and write back byte for byte."""
    path = Path(__file__).parent / "golden" / "boards_gd-sha256ctr-fy-1_cycle.gdn"
    text = path.read_text(encoding="utf-8")
    records = gdn.loads(text, file=path.name)
    assert records and all(r.plays is None and r.tags["DealId"] for r in records)
    assert gdn.dumps(records) == text


@pytest.mark.parametrize("name", ["canonical.gdn", "lenient.gdn", "openguandan-26-deals.gdn"])
def test_split_deals_cuts_where_the_reader_begins_deals(name: str) -> None:
    data = (GOLDEN / name).read_bytes()
    bad = _board_text(plays="N Single 5 ZZ\nE PASS\n[Play]\n", tail='[Finish "N X"]\n')
    for text in (data.decode("utf-8-sig"), bad + "\n" + data.decode("utf-8-sig") + "\n\n" + bad):
        whole = gdn.loads(text, strict=False, file="f")
        pieces = gdn.split_deals(text, file="f")
        assert [a for a, _ in pieces] == [r.line for r in whole]
        parts = [r for a, t in pieces for r in gdn.loads(t, strict=False, file="f", first_line=a)]
        assert [(r.line, r.lines, [str(e) for e in r.errors]) for r in parts] == [
            (r.line, r.lines, [str(e) for e in r.errors]) for r in whole
        ]
        assert gdn.dumps([r for r in parts if r.ok]) == gdn.dumps([r for r in whole if r.ok])


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda r: r.tags.update({"Bad name": "x"}), "invalid tag name 'Bad name'"),
        (lambda r: r.tags.update(Result="NS +1"), "tag Result is a field of the record"),
        (lambda r: r.tags.update(Event="two\nlines"), "tag Event holds a line break"),
        (lambda r: r.comments.append("a\nb"), "a comment holds a line break"),
        (lambda r: r.plays[2].comments.append("x\ry"), "a comment holds a line break"),
    ],
)
def test_writer_refuses_what_the_text_cannot_hold(change: object, reason: str) -> None:
    rec = gdn.loads(_canonical_text(), file="c.gdn")[0]
    change(rec)  # type: ignore[operator]
    with pytest.raises(GdnError, match="cannot write: ") as info:
        gdn.dumps(rec)
    assert reason in str(info.value) and info.value.file == "c.gdn"
    with pytest.raises(GdnError, match=reason.replace("(", r"\(")):
        gdn.to_json(rec)


def test_comment_lines_alone_are_no_deal(tmp_path: Path) -> None:
    """FORMAT.md allows comment lines anywhere: a file of comments only (a round's export
    where every room gave a result and no record) holds no deal, and says so the same way
    in every reader, instead of a deal 'with no Level tag'."""
    from duplicate.gdn import count_deals, iter_pieces, loads, split_deals

    text = "; table 1, board 2, open room: E S W  NS -2\n\n; table 1, board 2, closed room\n"
    assert loads(text) == [] and split_deals(text) == []
    path = tmp_path / "results.gdn"
    path.write_text(text, encoding="utf-8")
    assert count_deals(path) == 0 and list(iter_pieces(path, 10)) == []
