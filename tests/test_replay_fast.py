"""The fast paths of replaying against the reference: the same reports and verdicts, always.

The fast path (``duplicate.replay_fast``) reads plain records itself and hands the rest of
a file to the reference reader; whatever the text, the reports must be those the
reference gives for the whole file (``check_text``): the same deals, lines, results,
errors and words. Mutated records (a line dropped, doubled, a card changed, a comment, a
blank line inside a deal, white space, CRLF) and tiny read blocks (deals cut across
blocks) are the cases where the two could part.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duplicate import gdn, replay_fast, replay_files
from duplicate.replay import ReplayResult, check_text, quick_replay, replay
from duplicate.replay_files import check_files
from duplicate.simulate import simulate_boards
from engine import bulk, core
from engine.errors import IllegalPlayError
from engine.seat import Seat

GOLDEN = Path(__file__).parent / "golden" / "gdn"


def _simulated(boards: int) -> str:
    records = [r for o in simulate_boards(b"fast-path", boards, "heuristic", "random")
               for r in (o.open, o.closed)]
    return gdn.dumps(records)


SIMULATED = _simulated(4)


def _both(tmp_path: Path, data: bytes, name: str = "x.gdn") -> tuple[list[dict[str, object]],
                                                                       list[dict[str, object]]]:
    path = tmp_path / name
    path.write_bytes(data)
    fast = [r.to_dict() for r in check_files([path], jobs=1).reports()]
    ref = [r.to_dict() for r in check_text(data, file=str(path))]
    if not ref:  # no deal in the text: the file is refused as empty
        assert [r["status"] for r in fast] == ["error"]
        return fast, fast
    return fast, ref


@pytest.mark.parametrize("name", sorted(p.name for p in GOLDEN.glob("*.gdn")))
def test_golden_files_report_as_the_reference(tmp_path: Path, name: str) -> None:
    fast, ref = _both(tmp_path, (GOLDEN / name).read_bytes(), name)
    assert fast == ref


def test_plain_records_never_reach_the_reference_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plain form is read by the fast path alone (else it would be no faster)."""
    def refuse(*args: object) -> None:
        raise AssertionError("the reference reader was used")

    monkeypatch.setattr(replay_files, "_check_piece", refuse)
    path = tmp_path / "plain.gdn"
    path.write_text(SIMULATED, encoding="utf-8")
    reports = list(check_files([path], jobs=1).reports())
    assert len(reports) == 8 and {r.status for r in reports} == {"ok"}
    assert [r.to_dict() for r in reports] == [r.to_dict() for r in check_text(SIMULATED,
                                                                                 file=str(path))]


def test_small_blocks_cut_deals_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = SIMULATED.replace("[Play]\nN PASS", "[Play]\nN PASS")  # as written
    for block in (64, 300, 1000, 5000):
        monkeypatch.setattr(replay_fast, "BLOCK", block)
        fast, ref = _both(tmp_path, text.encode("utf-8"))
        assert fast == ref


_MUTATIONS = ["drop", "double", "card", "swap", "dealid", "comment", "blank", "spaces", "seat",
              "crlf", "tag", "trailer", "untyped", "case", "bom", "not_utf8"]


def _mutate(text: str, kind: str, at: int) -> bytes:
    lines = text.split("\n")
    i = at % len(lines)
    line = lines[i]
    if kind == "drop":
        del lines[i]
    elif kind == "double":
        lines.insert(i, line)
    elif kind == "card":
        lines[i] = line.replace("3", "4", 1)
    elif kind == "swap":  # two cards change hands: a valid board, another DealId
        deal = next(j for j in range(i, i + len(lines)) if lines[j % len(lines)].startswith("[Deal "))
        j = deal % len(lines)
        hands = lines[j][len('[Deal "'):-2].split(" ")
        north = next(k for k, tok in enumerate(hands) if tok.startswith("E:")) - 1
        lines[j] = '[Deal "' + " ".join([*hands[:north], hands[north + 2], *hands[north + 1:north + 2],
                                          hands[north], *hands[north + 3:]]) + '"]'
    elif kind == "dealid":
        j = next(j for j in range(i, i + len(lines)) if lines[j % len(lines)].startswith("[DealId "))
        j %= len(lines)
        lines[j] = lines[j].replace('"', '"0', 1)[:-3] + '"]'
    elif kind == "comment":
        lines[i] = line + " {a note}"
    elif kind == "blank":
        lines.insert(i, "")
    elif kind == "spaces":
        lines.insert(i, "   ")
    elif kind == "seat":
        lines[i] = {"N": "E", "E": "S", "S": "W", "W": "N"}.get(line[:1], line[:1]) + line[1:]
    elif kind == "crlf":
        lines[i] = line + "\r"
    elif kind == "tag":
        lines[i] = line.replace('"', "", 1)
    elif kind == "trailer":
        lines.insert(i, '[Result "NS +1"]')
    elif kind == "untyped":
        parts = line.split()
        if len(parts) > 3 and parts[0] in "NESW" and not line.startswith("["):
            lines[i] = " ".join([parts[0], *parts[3:]])
    elif kind == "bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    elif kind == "not_utf8":
        return "\n".join(lines[:i]).encode("utf-8") + b"\n\xff\n" + "\n".join(lines[i:]).encode()
    elif kind == "case":
        lines[i] = line.replace("[Board", "[board")
    return "\n".join(lines).encode("utf-8")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kinds=st.lists(st.tuples(st.sampled_from(_MUTATIONS), st.integers(0, 10_000)),
                      min_size=1, max_size=3),
       block=st.sampled_from([1 << 20, 700, 3000]))
def test_mutated_records_report_as_the_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kinds: list[tuple[str, int]], block: int
) -> None:
    data = SIMULATED.encode("utf-8")
    for kind, at in kinds:
        data = _mutate(data.decode("utf-8", "replace"), kind, at) if kind != "not_utf8" or \
            block == 1 << 20 else data
    monkeypatch.setattr(replay_fast, "BLOCK", block)
    fast, ref = _both(tmp_path, data)
    assert fast == ref


@pytest.mark.parametrize("native", [False, True])
def test_replay_log_checks_each_seat(native: bool) -> None:
    """``seats`` names each action's seat: out of turn is refused alike by both cores."""
    if native and core.compiled is None:
        pytest.skip("no compiled core in this install")
    record = gdn.loads(SIMULATED)[0]
    deal_seats = bytes(int(p.seat) for p in record.plays or ())
    replay_log = bulk.c_replay_log if native else bulk.py_replay_log
    assert replay_log(record.hands, record.level, record.leader,
                           [None if p.is_pass else (p.cards, p.type, p.rank)
                            for p in record.plays or ()], seats=deal_seats).over
    wrong = bytearray(deal_seats)
    wrong[3] = (wrong[3] + 1) % 4
    with pytest.raises(IllegalPlayError, match=f"^action 3: {Seat(deal_seats[3]).name} acts out of turn$"):
        replay_log(record.hands, record.level, record.leader,
                   [None if p.is_pass else (p.cards, p.type, p.rank)
                    for p in record.plays or ()], seats=bytes(wrong))


def _verdict(res: ReplayResult) -> tuple[object, ...]:
    result = res.result
    return (str(res.error) if res.error else None, res.failure,
            None if result is None else (result.finish_order, result.winner, result.levels,
                                         result.double_down),
            gdn.dumps(res.record) if res.ok and res.record.plays is not None else None)


@settings(max_examples=150, deadline=None)
@given(kinds=st.lists(st.tuples(st.sampled_from(_MUTATIONS[:-2]), st.integers(0, 10_000)),
                      max_size=2),
       native=st.booleans())
def test_quick_replay_gives_what_replay_gives(
    kinds: list[tuple[str, int]], native: bool
) -> None:
    """What importing, the store, pairs and the arena use: the same verdict as ``replay``."""
    data = SIMULATED.encode("utf-8")
    for kind, at in kinds:
        data = _mutate(data.decode("utf-8"), kind, at)
    if native and core.compiled is None:
        return
    with pytest.MonkeyPatch.context() as patch:  # the fast reader on the one implementation
        patch.setattr(replay_fast, "replay_log",
                      bulk.c_replay_log if native else bulk.py_replay_log)
        for rec in gdn.iter_records(data, strict=False):
            assert _verdict(quick_replay(rec)) == _verdict(replay(rec))
