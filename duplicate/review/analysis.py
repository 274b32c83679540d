"""The analysis on the review pages (``event report --analyse``, ``compare --html --analyse``).

Each room of a board is valued from its first action with all four hands known: exactly
:func:`duplicate.analysis.annotate.annotate` from ``action:1`` with par, as ``guandan analyse FILE
--board B --room R --from action:1 --json`` gives it with the same budget (a test holds
them equal). The budget counts search nodes and playouts with a seed, so a rebuilt report
shows the same values on any machine.

Each record is analysed once: the result is kept in the report folder
(``analysis/<key>.json``, the key a digest of the deal, the plays, the rules and the
budget), so a rebuild after a ruling or a correction on another board reads it back.

From the annotations the pages get, per room, a value-over-the-deal graph (SVG), the
value at every step of the movie with the marks (``?``/``??``), the best play, its value
and the line that follows; at the first divergence each room's choice, its value and what
it was worth in levels against the other room's; per player, the decisions marked and the
levels they lost (team and players pages).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from duplicate.analysis.annotate import action_dict, annotate, loss_of, options
from duplicate.analysis.estimate import Budget, Evaluation
from duplicate.compare import BoardComparison, RoomSummary
from duplicate.gdn import DealRecord, Play
from duplicate.i18n import game as vocab
from duplicate.i18n import translator
from engine.cards import parse_cards, parse_rank
from engine.combo import Combo, ComboType
from engine.ruleset import Ruleset
from engine.seat import Seat

#: Bumped when what an analysis holds changes: older stored analyses are not read.
FORMAT = 1
#: The folder of a report that holds the stored analyses.
FOLDER = "analysis"


def room_record(comp: BoardComparison, room: RoomSummary) -> DealRecord:
    """The deal record of one room as the comparison replayed it (hands, level, leader,
    every action with its reading)."""
    plays = [
        Play(m.seat) if m.combo is None else Play(m.seat, m.combo.cards, m.combo.type, m.combo.rank)
        for m in room.moves
    ]
    tags = {k: v for k, v in (("Board", comp.board), ("Room", room.room)) if v}
    return DealRecord(tags=tags, hands=comp.hands, level=comp.level, leader=comp.leader,
                      plays=plays)


def record_key(record: DealRecord, rules: Ruleset, budget: Budget) -> str:
    """The digest an analysis is stored under: the deal, the plays, the rules, the budget."""
    parts = [str(FORMAT), repr(record.hands), str(record.level), record.leader.name,
             " ".join(p.text() for p in record.plays or ()), repr(rules), repr(budget)]
    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()


class AnalysisStore:
    """Stored analyses, one JSON file a record in ``folder`` (in memory when ``None``)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self._memory: dict[str, dict[str, Any]] = {}
        self.computed = 0  # analyses made (not read back) by this store
        self.used: set[str] = set()  # keys asked for

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored analysis, or ``None`` (a file that cannot be read counts as none)."""
        self.used.add(key)
        if key in self._memory:
            return self._memory[key]
        if self.folder is None:
            return None
        try:
            data = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and data.get("format") == FORMAT else None

    def put(self, key: str, data: dict[str, Any]) -> None:
        """Keep ``data`` under ``key``."""
        self._memory[key] = data
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / f"{key}.json").write_text(
                json.dumps(data, ensure_ascii=False, sort_keys=True), encoding="utf-8")

    def prune(self, keep: Iterable[str]) -> None:
        """Remove the stored analyses not in ``keep`` (records since corrected, boards
        gone): the folder holds only what the report shows."""
        if self.folder is None or not self.folder.is_dir():
            return
        wanted = set(keep)
        for path in self.folder.glob("*.json"):
            if path.stem not in wanted:
                path.unlink(missing_ok=True)


def analyse_board(comp: BoardComparison, rules: Ruleset, budget: Budget,
                  store: AnalysisStore, keys: list[str] | None = None) -> list[dict[str, Any]]:
    """Each room's annotation (``Annotation.to_dict()`` from action 1, with par), in the
    order of ``comp.rooms``; read from ``store`` when it holds it, else made and kept (the
    keys used are appended to ``keys``)."""
    keys = [] if keys is None else keys
    out = []
    for room in comp.rooms:
        record = room_record(comp, room)
        key = record_key(record, rules, budget)
        keys.append(key)
        data = store.get(key)
        if data is None:
            data = analyse_record(record, rules, budget)
            if record.plays:
                store.computed += 1
            store.put(key, data)
        out.append(data["annotation"] or {})
    return out


def board_records(comp: BoardComparison) -> list[DealRecord]:
    """The record of each room of a board, as :func:`analyse_board` analyses them."""
    return [room_record(comp, room) for room in comp.rooms]


def analyse_record(record: DealRecord, rules: Ruleset, budget: Budget) -> dict[str, Any]:
    """The stored form of one record's analysis: ``{"format", "annotation"}``, the
    annotation from action 1 with par (``None`` for a record without plays). The one
    function that computes an analysis, here and in the jobs (``duplicate.jobs``)."""
    if not record.plays:
        return {"format": FORMAT, "annotation": None}
    ann = annotate(record, "action:1", rules, budget, with_par=True)
    return {"format": FORMAT, "annotation": ann.to_dict()}


#: Most actions valued at the divergence (each room's choice, the pass and the bombs first).
MAX_OPTIONS = 24


def analyse_options(comp: BoardComparison, rules: Ruleset, budget: Budget,
                    store: AnalysisStore, keys: list[str] | None = None) -> dict[str, Any]:
    """At the first divergence, the actions the seat to act had, one a type, rank and size,
    each valued (:func:`duplicate.analysis.annotate.options`: best for that seat's side
    first; at most :data:`MAX_OPTIONS`, each room's choice, the pass and the bombs first):
    ``{"count": distinct actions, "options": [{"action", "value"}]}``, no options when the
    rooms never diverged. Both rooms share the position, so it is valued once, and kept in
    ``store`` like a room's analysis."""
    div = comp.divergence
    if div is None:
        return {"count": 0, "options": []}
    room = next((r for r in comp.rooms if len(r.moves) > div.index), None)
    if room is None:
        return {"count": 0, "options": []}
    record = room_record(comp, room)
    record = DealRecord(tags={}, hands=record.hands, level=record.level, leader=record.leader,
                        plays=(record.plays or [])[:div.index + 1])
    key = record_key(record, rules, budget) + "-options"
    if keys is not None:
        keys.append(key)
    data = store.get(key)
    if data is None:
        keep = [m.combo for m in div.moves if m is not None]
        found, count = options(record, div.index, rules, budget, keep, MAX_OPTIONS)
        data = {"format": FORMAT, "count": count, "options": [
            {"action": action_dict(c), "value": e.to_dict()} for c, e in found]}
        store.computed += 1
        store.put(key, data)
    return {"count": int(data.get("count", 0)), "options": list(data.get("options") or [])}


def options_view(comp: BoardComparison, found: Sequence[Mapping[str, Any]],
                 lang: str) -> list[dict[str, Any]]:
    """The divergence's actions valued (``found``: :func:`analyse_options`'s ``options``)
    as the page lists them: the play in words and cards, its value and which room (if any)
    chose it, best for the side to act first."""
    div = comp.divergence
    if div is None:
        return []
    t = translator(lang)
    chosen: dict[tuple[object, ...], list[str]] = {}
    for room, m in zip(comp.rooms, div.moves, strict=False):
        if m is None:
            continue
        key = room.room.lower()
        label = t("report.room." + key) if key in ("open", "closed") else room.room
        c = m.combo
        chosen.setdefault((None,) if c is None else (c.type, c.rank, c.size), []).append(label)
    out = []
    for item in found:
        combo = _combo(item["action"])
        sig = (None,) if combo is None else (combo.type, combo.rank, combo.size)
        out.append({"play": vocab.play_text(combo, comp.level, lang),
                    "value": value_text(item["value"], lang),
                    "rooms": t("report.analysis.list_sep").join(chosen.pop(sig, []))})
    return out


# --- reading an annotation back ----------------------------------------------------------

def _combo(action: Mapping[str, Any]) -> Combo | None:
    """An action of the JSON form (``{"pass": true}`` or type, rank, cards) as a Combo."""
    if action.get("pass"):
        return None
    return Combo(ComboType.from_name(str(action["type"])), parse_rank(str(action["rank"])),
                 parse_cards(" ".join(action["cards"])))


def signed(value: float) -> str:
    """A value to one decimal with its sign, never ``-0.0``: ``+0.4``, ``-1.2``, ``0.0``."""
    shown = round(value, 1)
    return "0.0" if shown == 0 else f"{shown:+.1f}"


def value_text(value: Mapping[str, Any] | None, lang: str) -> str:
    """An evaluation as a player reads it: ``南北 +1`` exact, ``南北 ≈+0.4±0.3`` an
    estimate with its standard error."""
    if not value:
        return "—"
    t = translator(lang)
    if value["kind"] == "exact":
        shown = f"{int(value['value']):+d}"
    else:
        shown = t("report.analysis.estimate", value=signed(float(value["value"])),
                  error=f"{float(value.get('stderr', 0)):.1f}")
    return str(t("report.analysis.ns", value=shown))


def _evaluation(value: Mapping[str, Any]) -> Evaluation:
    if value["kind"] == "exact":
        return Evaluation(int(value["value"]), True)
    return Evaluation(float(value["value"]), False, int(value.get("samples", 0)),
                      float(value.get("stderr", 0.0)))


def loss(decision: Mapping[str, Any]) -> tuple[float, float]:
    """What a decision (JSON form) cost its side in levels, and that figure's standard
    error (:func:`duplicate.analysis.annotate.loss_of`)."""
    return loss_of(int(Seat[decision["seat"]]), _evaluation(decision["before"]),
                   _evaluation(decision["after"]))


def step_text(ply: int, lang: str) -> str:
    """The step an action (numbered from 0) is shown at in the movie: ``第90步``."""
    return str(translator(lang)("report.analysis.step", n=ply + 1))


def mark_text(decision: Mapping[str, Any], level: int, lang: str, player: str = "") -> str:
    """A marked decision in a player's words: who played (seat and player), the play and
    its mark, what it cost the side and what was better: ``东（张伟） 对子Q？东西丢1级；应出对子K``."""
    t = translator(lang)
    seat = Seat[decision["seat"]]
    who = t("report.analysis.who", seat=vocab.seat_name(seat, lang), player=player) if player \
        else vocab.seat_name(seat, lang)
    side = vocab.side_name(int(seat) % 2 == 0, lang)
    lost, error = loss(decision)
    exact = decision["before"]["kind"] == decision["after"]["kind"] == "exact"
    cost = t("report.analysis.lost", side=side, n=int(round(lost))) if exact else \
        t("report.analysis.lost_est", side=side, levels=f"{lost:.1f}", error=f"{error:.1f}")
    best = decision.get("best") or []
    if not best:
        better = t("report.analysis.no_best")
    elif best[0]["action"].get("pass"):
        better = t("report.analysis.better_pass")
    else:
        better = t("report.analysis.better", play=vocab.describe_play(_combo(best[0]["action"]),
                                                                        level, lang))
    return str(t("report.analysis.said", who=who, play=vocab.describe_play(
        _combo(decision["action"]), level, lang), mark=t("report.analysis.mark" + str(
            len(decision["mark"]))), cost=cost, better=better))


def step_marks(annotation: Mapping[str, Any], level: int, lang: str,
               players: Sequence[str] = ()) -> list[dict[str, Any] | None]:
    """For each action of the room (by ply), what the movie shows after it: the value
    after it, the seat that made it (``s``) and, for a marked action, the mark, the
    sentence that names the seat and player who played, what it cost and what was better
    (``t``), the value before, the best plays with their values and the best line (seat
    and play). ``None`` where nothing was valued. ``players``: the room's players by seat."""
    plies = int(annotation.get("plies", 0))
    out: list[dict[str, Any] | None] = [None] * plies
    for d in annotation.get("decisions", ()):
        seat = Seat[d["seat"]]
        item: dict[str, Any] = {"v": value_text(d["after"], lang), "s": int(seat)}
        if d["mark"]:
            item["m"] = d["mark"]
            item["t"] = mark_text(d, level, lang, players[seat] if len(players) > seat else "")
            item["b"] = value_text(d["before"], lang)
            item["best"] = [
                {"d": vocab.describe_play(_combo(b["action"]), level, lang),
                 "v": value_text(b["value"], lang)} for b in d["best"]]
            item["line"] = [
                vocab.seat_name(Seat[x["seat"]], lang) + " "
                + vocab.describe_play(_combo(x["action"]), level, lang) for x in d["line"]]
        out[int(d["ply"])] = item
    return out


def _value_of(v: Mapping[str, Any]) -> float:
    return float(v["value"])


def graph_svg(annotation: Mapping[str, Any], lang: str, title: str) -> Markup:
    """The value over the deal (N–S levels, action by action) as an inline SVG: exact
    values filled dots on a solid line, estimates hollow ones on a dashed line; the
    marked actions ringed; the steps numbered along the bottom, each dot carrying its
    step (``data-step``: the movie's step after that action). Its text alternative names
    the start, the end and the marks."""
    t = translator(lang)
    decisions = list(annotation.get("decisions", ()))
    if not decisions:
        return Markup("")
    plies = max(int(annotation.get("plies", 1)), 1)
    top = max(3, max(abs(_value_of(d["after"])) for d in decisions))
    w, h, pad = 600, 160, 18

    def x(ply: float) -> float:
        return pad + (w - 2 * pad) * ply / plies

    def y(value: float) -> float:
        return h / 2 - (h / 2 - pad) * value / top

    parts = [f'<line class="axis" x1="{pad}" y1="{y(0):.1f}" x2="{w - pad}" y2="{y(0):.1f}"/>']
    for v in range(-int(top), int(top) + 1):
        if v:
            parts.append(f'<text class="tick" x="2" y="{y(v) + 4:.1f}">{v:+d}</text>')
    # the steps along the bottom, as the movie counts them (every 20, and the word)
    for k in range(20, plies + 1, 20):
        parts.append(f'<text class="tick steptick" x="{x(k):.1f}" y="{h - 3}" '
                     f'text-anchor="middle">{k}</text>')
    parts.append(f'<text class="tick steptick" x="{w - 2}" y="{h - 3}" text-anchor="end">'
                 f'{escape(t("report.analysis.step_axis"))}</text>')
    points = [(int(d["ply"]) + 1, d["after"], d["mark"]) for d in decisions]
    first = decisions[0]
    points.insert(0, (int(first["ply"]), first["before"], ""))
    for (p0, v0, _), (p1, v1, _) in zip(points, points[1:], strict=False):
        cls = "exact" if v0["kind"] == v1["kind"] == "exact" else "estimate"
        parts.append(f'<line class="{cls}" x1="{x(p0):.1f}" y1="{y(_value_of(v0)):.1f}" '
                     f'x2="{x(p1):.1f}" y2="{y(_value_of(v1)):.1f}"/>')
    for p, v, mark in points:
        cls = "exact" if v["kind"] == "exact" else "estimate"
        parts.append(f'<circle class="{cls}" data-step="{p}" cx="{x(p):.1f}" '
                     f'cy="{y(_value_of(v)):.1f}" r="2.5"/>')
        if mark:
            parts.append(f'<circle class="mark" cx="{x(p):.1f}" cy="{y(_value_of(v)):.1f}" r="6"/>'
                         f'<text class="marktext" x="{x(p) + 7:.1f}" y="{y(_value_of(v)) - 6:.1f}">'
                         f'{escape(mark)}</text>')
    marks = [step_text(int(d["ply"]), lang) + t("report.analysis.mark" + str(len(d["mark"])))
             for d in decisions if d["mark"]]
    summary = t("report.analysis.graph_alt", start=value_text(first["before"], lang),
                end=value_text(decisions[-1]["after"], lang),
                marks=t("report.analysis.list_sep").join(marks) if marks
                else t("report.analysis.no_marks"))
    return Markup(
        f'<figure class="valuegraph"><svg viewBox="0 0 {w} {h}" role="img" '
        f'data-plies="{plies}" data-x0="{pad}" data-x1="{w - pad}" '
        f'aria-label="{escape(title)}{escape(t("punct.colon"))}{escape(summary)}">{"".join(parts)}</svg>'
        f'<figcaption>{escape(title)} · {escape(summary)}</figcaption></figure>')


def divergence_choices(comp: BoardComparison, annotations: Sequence[Mapping[str, Any]],
                       lang: str) -> list[dict[str, Any]]:
    """At the first divergence, each room's choice: the play, the value after it, its mark
    and what it was worth in levels to the side that made it, against the other room's
    choice (``worth``: + better, − worse; ``None`` when a value is missing)."""
    div = comp.divergence
    if div is None:
        return []
    t = translator(lang)
    found = []
    for room, ann in zip(comp.rooms, annotations, strict=True):
        d = next((x for x in ann.get("decisions", ()) if int(x["ply"]) == div.index), None)
        found.append((room, d))
    out = []
    sign = 1 if int(div.turn) % 2 == 0 else -1  # the side to act: N–S (+) or E–W (−)
    for i, (room, d) in enumerate(found):
        others = [o for j, (_, o) in enumerate(found) if j != i and o is not None]
        worth = None
        worth_text = "—"
        exact = bool(d and d["after"]["kind"] == "exact"
                     and all(o["after"]["kind"] == "exact" for o in others))
        if d is not None and others:
            worth = round(sign * (_value_of(d["after"]) - _value_of(others[0]["after"])), 1)
            if exact:
                worth_text = t("report.analysis.worth", levels=f"{int(worth):+d}" if worth else "0")
            else:
                error = (float(d["after"].get("stderr", 0)) ** 2
                         + float(others[0]["after"].get("stderr", 0)) ** 2) ** 0.5
                worth_text = t("report.analysis.worth_est", levels=signed(worth),
                               error=f"{error:.1f}")
        key = room.room.lower()
        out.append({
            "room": t("report.room." + key) if key in ("open", "closed") else room.room,
            "seat": vocab.seat_name(div.turn, lang),
            "play": vocab.describe_play(_combo(d["action"]), comp.level, lang) if d else "—",
            "value": value_text(d["after"], lang) if d else "—",
            "mark": d["mark"] if d else "",
            "worth": worth,
            "worth_text": worth_text,
            "exact": exact,
        })
    return out


#: The per-player figures of the analysis, in the order the pages show them.
FIGURES = ("decisions", "dubious", "blunders", "levels_lost")


def player_decisions(comp: BoardComparison, annotations: Sequence[Mapping[str, Any]]
                     ) -> Iterator[tuple[Any, str, Seat, Mapping[str, Any]]]:
    """Each decision of a named player on one board: (room, player, seat, decision as the
    room's annotation holds it), room by room in the order played."""
    for room, ann in zip(comp.rooms, annotations, strict=True):
        for d in ann.get("decisions", ()):
            seat = Seat[d["seat"]]
            player = room.players[seat]
            if player:
                yield room, player, seat, d


def player_figures(comp: BoardComparison,
                   annotations: Sequence[Mapping[str, Any]]) -> dict[str, list[int]]:
    """Player name -> [decisions valued, ``?`` marks, ``??`` marks, levels lost] on one
    board (levels lost: what the marked decisions cost their side, exact values only)."""
    out: dict[str, list[int]] = {}
    for _, player, seat, d in player_decisions(comp, annotations):
        fig = out.setdefault(player, [0] * len(FIGURES))
        fig[0] += 1
        if d["mark"]:
            fig[1 if d["mark"] == "?" else 2] += 1
            sign = 1 if int(seat) % 2 == 0 else -1
            fig[3] += int(round(sign * (_value_of(d["before"]) - _value_of(d["after"]))))
    return out


def merge_figures(per_board: Iterable[Mapping[str, Sequence[int]]]) -> dict[str, list[int]]:
    """Sum boards' :func:`player_figures` by player."""
    total: dict[str, list[int]] = {}
    for board in per_board:
        for player, fig in board.items():
            acc = total.setdefault(player, [0] * len(FIGURES))
            for i, v in enumerate(fig):
                acc[i] += int(v)
    return total
