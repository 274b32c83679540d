"""A shape is written once: the library's dataclasses make their own JSON form
(``duplicate.shapes``: renames, omissions and written forms declared on the fields), no
hand-written ``to_dict`` remains beside them but those listed here with their reason, and
the web API's answer models hold exactly the fields of the library class they are read
from, so that the two cannot drift apart (docs/DESIGN.md, "One shape, one definition")."""

from __future__ import annotations

import ast
import dataclasses
import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel

from duplicate.arena.uncertainty import MarginEstimate
from duplicate.boards import SetInfo
from duplicate.capture import base as capture_base
from duplicate.capture.tokens import RecorderCard
from duplicate.hall import base as hall_base
from duplicate.hall import outcomes, views
from duplicate.shapes import HIDDEN, As, IsoTime, Round2, Shaped, UtcTime, named
from duplicate.standings import StandingRow
from duplicate.web import api_capture, api_models, api_models_director

ROOT = Path(__file__).resolve().parent.parent

#: The hand-written ``to_dict`` that remain, each with why its form is not the fields'.
ALLOWED = {
    "duplicate/shapes.py:Shaped": "the one mechanism every shaped dataclass inherits",
    "engine/ruleset.py:Ruleset": "the engine carries no pydantic: every variant by "
    "dataclasses.fields, in one line",
    "duplicate/scoring.py:Scale": "a Protocol's declaration, no body",
    "duplicate/analysis/budget.py:Budget": "a budget counted in cards writes ``cards`` in "
    "place of ``nodes``: one field replaces another",
    "duplicate/scoring.py:WinDrawLoss": "the stored scale's keys start with its name, the "
    "constructor with the points",
    "duplicate/scoring.py:VictoryPoints": "the same: name first in the stored JSON",
    "duplicate/compare.py:Move": "cards as tokens in the deal level's order: a parameter",
    "duplicate/compare.py:WildUse": "what the wild stood for depends on the level",
    "duplicate/compare.py:Trick": "its steps are written at the deal's level",
    "duplicate/compare.py:SeatSummary": "cards left written at the deal's level",
    "duplicate/compare.py:RoomSummary": "written at the deal's level; the ruling only when "
    "there is one",
    "duplicate/compare.py:Divergence": "hands and plays written at the deal's level",
    "duplicate/compare.py:BoardComparison": "passes its level to every part",
    "duplicate/events/base.py:EventInfo": "the bye rule's two fields flattened in the "
    "middle; the secret seed left out",
    "duplicate/events/scores.py:ScoredMatch": "a listing row flattened from the match and "
    "its score",
    "duplicate/events/scores.py:ScoredBye": "a listing row in the matches' columns",
    "duplicate/events/batch.py:FileOutcome": "a file's status and its summary's counts "
    "flattened",
    "duplicate/boards.py:SetInfo": "``revealed`` computed in the middle of the fields",
    "duplicate/boards.py:BoardSet": "the set's fields flattened beside its boards",
    "duplicate/boards.py:Verification": "the set's fields flattened after the count",
    "duplicate/hall/outcomes.py:RoomOutcome": "its room state's fields flattened into "
    "its own",
    "duplicate/hall/views.py:LiveStandings": "the rows' listing columns; ``corrected`` "
    "computed between the fields",
    "duplicate/pairs.py:PairsResult": "the boards only when asked (a parameter)",
    "duplicate/simulate.py:PlayStats": "statistics computed from the counts",
    "duplicate/analysis/annotate.py:Decision": "actions in the record's words, candidate "
    "lines as pairs",
    "duplicate/analysis/annotate.py:Annotation": "the level's name and the par",
    "duplicate/analysis/estimate.py:Evaluation": "exact or estimated: different keys",
    "duplicate/analysis/rooms.py:RoomAnalysis": "the result read from its annotation",
    "duplicate/analysis/rooms.py:RoomsAnalysis": "its rooms' decisions are written by hand",
    "duplicate/i18n/game.py:Face": "the movie script's one-letter keys, classes computed",
}


def _hand_written() -> set[str]:
    found = set()
    for path in sorted([*ROOT.glob("duplicate/**/*.py"), *ROOT.glob("engine/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(f, ast.FunctionDef) and f.name == "to_dict" for f in node.body):
                found.add(f"{path.relative_to(ROOT).as_posix()}:{node.name}")
    return found


def test_no_hand_written_to_dict_but_the_listed_ones() -> None:
    found = _hand_written()
    assert found - ALLOWED.keys() == set(), "a new hand-written to_dict: declare the " \
        "shape on the dataclass (duplicate.shapes) or list it here with its reason"
    assert ALLOWED.keys() - found == set(), "listed but gone: take it off the list"


# --- the mechanism, on a dataclass of the test's own ---------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class _Inner(Shaped):
    seat: str = dataclasses.field(metadata=named("N"))


@dataclasses.dataclass(frozen=True, slots=True)
class _Sample(Shaped):
    round_no: int = dataclasses.field(metadata=named("round"))
    at: IsoTime | None
    stored: UtcTime
    late: Round2
    pairs: Annotated[tuple[tuple[str, str], ...], As(lambda ps: [f"{a}/{b}" for a, b in ps])]
    inner: tuple[_Inner, ...]
    secret: str = dataclasses.field(default="s3cret", metadata=HIDDEN)

    JSON_COMPUTED = ("text",)

    @property
    def text(self) -> str:
        return f"round {self.round_no}"


def test_the_form_comes_from_the_declarations() -> None:
    east = timezone(timedelta(hours=8))
    sample = _Sample(2, datetime(2026, 5, 1, 9, 0, tzinfo=UTC),
                     datetime(2026, 5, 1, 17, 0, tzinfo=east), 3.14159,
                     (("a", "b"),), (_Inner("Li"), _Inner("Wang")))
    assert json.dumps(sample.to_dict()) == json.dumps({
        "round": 2, "at": "2026-05-01T09:00:00+00:00", "stored": "2026-05-01T09:00:00+00:00",
        "late": 3.14, "pairs": ["a/b"], "inner": [{"N": "Li"}, {"N": "Wang"}],
        "text": "round 2"})
    naive = _Sample(1, None, datetime(2026, 5, 1, 9, 0), 0.0, (), ())
    assert naive.to_dict()["stored"] == "2026-05-01T09:00:00+00:00"  # SQLite's naive UTC
    assert naive.to_dict()["at"] is None and "secret" not in naive.to_dict()


def test_a_seat_by_name_a_margin_rounded_and_its_computed_fields() -> None:
    estimate = MarginEstimate(64, 0.123456, 0.0567, -0.0012345, 0.25)
    assert list(estimate.to_dict().items()) == [
        ("boards", 64), ("mean", 0.123), ("stderr", 0.057), ("low", -0.001),
        ("high", 0.25), ("confidence", 0.95), ("separated", False)]


# --- the API's answers hold the library's fields ---------------------------------------------

#: An answer model read from a library object's attributes (``api_models.out``), the class
#: it is read from, and the class's fields the API does not show (each with why).
BY_ATTRIBUTE: list[tuple[type[BaseModel], type, dict[str, str]]] = [
    (api_models.Seat4Out, hall_base.Seat4, {}),
    (api_models.DrawRowOut, views.DrawRow, {}),
    (api_models.StandingRowOut, StandingRow, {"lot": "the draw's lot stays internal"}),
    (api_models.RoomStateOut, outcomes.RoomState, {}),
    (api_models.PublishedChangeOut, outcomes.PublishedChange, {}),
    (api_models.StandingsOut, views.LiveStandings, {}),
    (api_models.ClockOut, hall_base.Clock, {
        "paused_at": "the desk's clock shows it (DeskClockOut)",
        "shift_seconds": "the desk's clock shows it (DeskClockOut)"}),
    (api_models_director.DeskClockOut, hall_base.Clock, {}),
    (api_models.MatchBoardOut, views.MatchBoard, {}),
    (api_models.PublicMatchOut, views.PublicMatch, {}),
    (api_models.GrantOut, hall_base.Grant, {}),
    (api_models.ReportOut, hall_base.Report, {}),
    (api_models.DecisionOut, hall_base.Decision, {}),
    (api_models.BoardStatusOut, hall_base.BoardStatus, {}),
    (api_models.TableViewOut, views.TableView, {}),
    (api_models.PreviewOut, hall_base.Preview, {}),
    (api_models.RoomStatusOut, views.RoomStatus, {}),
    (api_models_director.ArrivalOut, hall_base.Arrival, {}),
    (api_models_director.RulingOut, views.Ruling, {}),
    (api_models_director.SetOut, SetInfo, {"delayed_value": "the command line shows it"}),
]

#: An answer model validated from a library object's JSON form (``to_dict``), the class,
#: and the names the API adds to it. (The capture protocol's other answers are the
#: library's dataclasses themselves: see the test below.)
BY_FORM: list[tuple[type[BaseModel], type[Shaped], set[str]]] = [
    (api_capture.RecorderCardOut, RecorderCard, {"url"}),
]


def _attributes(cls: type) -> set[str]:
    """A class's fields and properties."""
    props = {name for klass in cls.__mro__ for name, value in vars(klass).items()
             if isinstance(value, property)}
    return {f.name for f in dataclasses.fields(cls)} | props


def _json_names(cls: type) -> set[str]:
    """The names of a Shaped class's JSON form: its fields by their JSON name, left-out
    fields not, then its computed values."""
    names = {f.metadata.get("alias", f.name) for f in dataclasses.fields(cls)
             if not f.metadata.get("exclude")}
    return names | set(getattr(cls, "JSON_COMPUTED", ()))


def test_every_answer_model_read_from_attributes_holds_its_class_fields() -> None:
    for model, cls, not_shown in BY_ATTRIBUTE:
        fields = set(model.model_fields)
        assert fields <= _attributes(cls), (model.__name__, fields - _attributes(cls))
        missing = {f.name for f in dataclasses.fields(cls)} - fields - not_shown.keys()
        assert missing == set(), f"{model.__name__} lacks {cls.__name__}'s {missing}"


def test_every_answer_model_validated_from_a_json_form_holds_its_names() -> None:
    for model, cls, added in BY_FORM:
        assert set(model.model_fields) == _json_names(cls) | added, model.__name__


def test_every_answer_model_read_from_the_library_is_listed() -> None:
    listed = {m for m, _, _ in BY_ATTRIBUTE}
    for module in (api_models, api_models_director):
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, api_models.Out)
                    and value is not api_models.Out and value.__module__ == module.__name__):
                assert value in listed, value.__name__


def test_the_capture_protocol_answers_with_the_library_classes() -> None:
    models = {route.path: route.response_model for route in api_capture.router.routes
              if getattr(route, "response_model", None) is not None}
    assert models["/api/capture/{token}"] is capture_base.TableCapture
    assert models["/api/capture/{token}/boards/{board}"] is capture_base.BoardState
    assert models["/api/capture/{token}/boards/{board}/actions"] is capture_base.Ack
