"""The record reader's bounds: reading a file deal by deal, limits on
line and tag lengths, control characters refused, names normalised to NFC."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from duplicate import gdn
from duplicate.gdn import MAX_LINE, MAX_TAG_VALUE, GdnError, iter_file

GOLDEN = Path(__file__).parent / "golden" / "gdn"
EXAMPLE = GOLDEN / "openguandan-26-deals.gdn"
CANONICAL = (GOLDEN / "canonical.gdn").read_text(encoding="utf-8")


def with_tag(text: str, name: str, value: str) -> str:
    """``text`` (one deal) with the tag ``name`` set to ``value`` (added after Event)."""
    lines = [ln for ln in text.splitlines() if not ln.startswith(f"[{name} ")]
    lines.insert(1, f'[{name} "{value}"]')
    return "\n".join(lines) + "\n"


def one_deal() -> str:
    first = gdn.loads(CANONICAL)[0]
    return gdn.dumps(first)


# --- streaming -------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.gdn")), ids=lambda p: p.name)
def test_iter_file_reads_what_loads_reads(path: Path) -> None:
    whole = gdn.loads(path.read_bytes(), file=path.name, strict=False)
    streamed = list(iter_file(path, file=path.name, strict=False))
    assert [r.line for r in streamed] == [r.line for r in whole]
    assert [r.lines for r in streamed] == [r.lines for r in whole]
    assert [[str(e) for e in r.errors] for r in streamed] == [[str(e) for e in r.errors] for r in whole]
    assert [(r.tags, r.hands, r.plays, r.finish, r.result) for r in streamed] == [
        (r.tags, r.hands, r.plays, r.finish, r.result) for r in whole
    ]


def test_iter_file_is_lazy_and_reports_progress_per_deal(tmp_path: Path) -> None:
    path = tmp_path / "big.gdn"
    path.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.read_bytes().replace(b"\n", b"\r\n"))
    steps: list[int] = []
    deals = iter_file(path, progress=steps.append)
    first = next(deals)
    assert first.line == 1 and first.ok and len(steps) == 1  # one deal read, not the file
    assert steps[0] < path.stat().st_size // 10
    rest = list(deals)
    assert len(rest) == 25 and all(r.ok for r in rest)
    assert len(steps) >= 26 and sum(steps) == path.stat().st_size
    assert [r.line for r in rest] == [r.line for r in gdn.loads(EXAMPLE.read_bytes())[1:]]


def test_iter_file_errors_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.gdn"
    deal = one_deal()
    path.write_bytes(deal.encode() + b"\n" + deal.encode().replace(b"[Room", b"[R\xffoom", 1))
    deals = iter_file(path)
    assert next(deals).ok  # the first deal comes before the bad byte is seen
    bad_line = deal.count("\n") + 1 + deal.splitlines().index(
        next(ln for ln in deal.splitlines() if ln.startswith("[Room"))
    ) + 1
    with pytest.raises(GdnError, match=rf"bad.gdn:{bad_line}: not UTF-8 text"):
        next(deals)
    with pytest.raises(GdnError, match="cannot read"):
        list(iter_file(tmp_path / "missing.gdn"))


# --- limits ----------------------------------------------------------------------------


def test_a_long_tag_value_is_refused_with_file_line_and_limit(tmp_path: Path) -> None:
    text = with_tag(one_deal(), "Annotator", "x" * (MAX_TAG_VALUE + 1))
    with pytest.raises(GdnError, match=rf"f.gdn:2: the value of tag Annotator has {MAX_TAG_VALUE + 1:,} "
                       rf"characters: at most {MAX_TAG_VALUE:,}"):
        gdn.loads(text, file="f.gdn")
    lenient = gdn.loads(text + "\n" + one_deal(), file="f.gdn", strict=False)
    assert not lenient[0].ok and lenient[1].ok
    ok = with_tag(one_deal(), "Annotator", "x" * MAX_TAG_VALUE)
    assert gdn.loads(ok)[0].tags["Annotator"] == "x" * MAX_TAG_VALUE


def test_a_long_line_is_refused_on_every_path(tmp_path: Path) -> None:
    deal = one_deal()
    huge = deal.replace("[Play]", "[Play]\n; " + "y" * (20 * 1024 * 1024), 1)
    message = rf"\d+: the line has more than {MAX_LINE:,} characters"
    with pytest.raises(GdnError, match="f.gdn:" + message):
        gdn.loads(huge, file="f.gdn")
    path = tmp_path / "huge.gdn"
    path.write_text(huge + "\n" + deal, encoding="utf-8")
    with pytest.raises(GdnError, match="huge.gdn:" + message):
        list(iter_file(path))
    lenient = list(iter_file(path, strict=False))
    assert len(lenient) == 2 and not lenient[0].ok and lenient[1].ok
    assert "more than" in str(lenient[0].errors[0])
    # a piece cut by split_deals reads as the whole does
    pieces = gdn.split_deals(huge + "\n" + deal)
    assert len(pieces) == 2


# --- control characters and Unicode ----------------------------------------------------


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x07", "\x7f", "\x9b"])
def test_control_characters_are_refused(char: str) -> None:
    text = with_tag(one_deal(), "North", f"Zhang{char}Wei")
    with pytest.raises(GdnError, match=r"f.gdn:2: a control character U\+00"):
        gdn.loads(text, file="f.gdn")
    comment = one_deal().replace("[Play]", f"[Play]\n; note{char}", 1)
    with pytest.raises(GdnError, match="control character"):
        gdn.loads(comment, file="f.gdn")
    obj = gdn.to_json(gdn.loads(one_deal())[0])
    obj["tags"]["North"] = f"Zhang{char}Wei"
    with pytest.raises(GdnError, match="control character"):
        gdn.from_json(obj)
    obj["tags"]["North"] = "Zhang"
    obj["comments"] = [f"a{char}"]
    with pytest.raises(GdnError, match="control character"):
        gdn.from_json(obj)


def test_a_tab_is_allowed() -> None:
    text = with_tag(one_deal(), "Annotator", "a\tb")
    assert gdn.loads(text)[0].tags["Annotator"] == "a\tb"


def test_names_are_read_as_nfc() -> None:
    nfd = unicodedata.normalize("NFD", "Zhāng Wěi")
    assert nfd != "Zhāng Wěi"
    rec = gdn.loads(with_tag(one_deal(), "North", nfd))[0]
    assert rec.tags["North"] == "Zhāng Wěi"
    obj = gdn.to_json(gdn.loads(one_deal())[0])
    obj["tags"]["North"] = nfd
    assert gdn.from_json(obj).tags["North"] == "Zhāng Wěi"


def test_the_writer_refuses_what_the_reader_would() -> None:
    rec = gdn.loads(one_deal())[0]
    rec.tags["Event"] = "Cup\x1b[2J"
    with pytest.raises(GdnError, match="cannot write: the value of tag Event holds a control"):
        gdn.dumps(rec)
    rec.tags["Event"] = "Cup"
    rec.comments.append("a\x00b")
    with pytest.raises(GdnError, match="cannot write: a comment holds a control character U"):
        gdn.dumps(rec)
