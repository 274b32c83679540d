"""The JSON form of the library's dataclasses, made by pydantic from their declarations.

A dataclass that inherits :class:`Shaped` has ``to_dict()``: its fields in order, by name,
as pydantic's JSON mode gives them (nested dataclasses, lists and tuples, enums' values).
What differs from that is declared on the field, once:

- a JSON name other than the field's: ``round_no: int = field(metadata=named("round"))``;
- a field kept out of the JSON form: ``said: Phrase | None = field(default=None,
  metadata=HIDDEN)``, or written only when it is not its default: ``policy: str =
  field(default="heuristic", metadata=unless("heuristic"))``;
- a value written otherwise: the field's type is ``Annotated`` with :class:`As`, e.g.
  :data:`IsoTime` (``datetime.isoformat()``, as the files and ``--json`` always wrote
  it), :data:`Round2`, :data:`BY_NAME` (an enum by its name);
- a value computed from the fields (a property), after them: ``JSON_COMPUTED``.

The metadata goes through ``dataclasses.field`` (so that type checkers see which fields
have a default); pydantic reads it with the names of its ``Field``
(``alias``, ``exclude``, ``description``), so a model derived from the
dataclass (the web API's) sees the same names. pydantic is imported on the first JSON
form made, not with the library (start-up: a command that writes no JSON never loads it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from operator import attrgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, TypeAdapter
    from pydantic_core import CoreSchema


def named(json_name: str, description: str | None = None) -> dict[str, Any]:
    """A field's metadata giving its JSON name: ``field(metadata=named("round"))`` (the
    name pydantic writes and reads: the form can be read back)."""
    return {"alias": json_name} | about(description)


def about(description: str | None) -> dict[str, Any]:
    """A field's metadata describing it in the API's schema (none: nothing)."""
    return {} if description is None else {"description": description}


#: A field's metadata leaving it out of the JSON form: ``field(metadata=HIDDEN)``.
HIDDEN: Mapping[str, Any] = MappingProxyType({"exclude": True})


def unless(default: Any) -> dict[str, Any]:
    """A field's metadata writing it only when it is not ``default``:
    ``field(default="heuristic", metadata=unless("heuristic"))``."""
    return {"exclude_if": lambda value: value == default}


class As:
    """``Annotated[T, As(f)]``: the value is written as ``f(value)`` in the JSON form."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        # lazy: start-up speed (pydantic_core only once a JSON form is made)
        from pydantic_core import core_schema
        schema = handler(source)
        return {**schema,
                "serialization": core_schema.plain_serializer_function_ser_schema(self.fn)}


def iso_utc(when: datetime) -> str:
    """A stored time as ISO 8601 in UTC with its offset (SQLite gives it back naive: the
    database wrote UTC)."""
    return (when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)).isoformat()


def _round2(value: float) -> float:
    return round(value, 2)


def _round3(value: float) -> float:
    return round(value, 3)


#: ``Annotated[AnEnum, BY_NAME]``: an enum member written by its name (a seat's ``N``).
BY_NAME = As(attrgetter("name"))
#: A time written ``datetime.isoformat()`` (``+00:00``, never pydantic's ``Z``).
IsoTime = Annotated[datetime, As(datetime.isoformat)]
#: A stored time written in UTC with its offset (:func:`iso_utc`).
UtcTime = Annotated[datetime, As(iso_utc)]
#: A number written as it is held: an int given for a float stays an int (``0``, not
#: pydantic's ``0.0``), as ``json.dumps`` writes it.
Number = Annotated[float, As(lambda value: value)]
#: A number written to two / three decimals.
Round2 = Annotated[float, As(_round2)]
Round3 = Annotated[float, As(_round3)]


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def adapter(cls: type) -> TypeAdapter[Any]:
    """pydantic's adapter of ``cls``, made once."""
    found = _ADAPTERS.get(cls)
    if found is None:
        # lazy: start-up speed (pydantic only once a JSON form is made)
        from pydantic import TypeAdapter
        found = _ADAPTERS[cls] = TypeAdapter(cls)
    return found


def json_form(obj: Any) -> Any:
    """``obj`` (a dataclass, or a list of them...) in its JSON form."""
    return adapter(type(obj)).dump_python(obj, mode="json", by_alias=True)


def json_bytes(obj: Any) -> bytes:
    """``obj``'s JSON form as the UTF-8 JSON text an answer carries."""
    return adapter(type(obj)).dump_json(obj, by_alias=True)


class Shaped:
    """A dataclass whose ``to_dict()`` is its JSON form, made from its declarations."""

    __slots__ = ()

    #: pydantic's settings for these classes: a field of a type of its own (a catalogue
    #: phrase, left out with :func:`hidden`) needs no schema of pydantic's
    __pydantic_config__: ClassVar[dict[str, Any]] = {"arbitrary_types_allowed": True}

    #: properties written after the fields, in this order (values computed from them)
    JSON_COMPUTED: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the fields as declared, then :attr:`JSON_COMPUTED`."""
        out: dict[str, Any] = json_form(self)
        return out

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        schema = handler(source)
        names = cls.JSON_COMPUTED
        if not names:
            return schema
        # lazy: start-up speed (pydantic_core only once a JSON form is made)
        from pydantic_core import core_schema

        def computed(obj: Any, fields: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
            return {**fields(obj), **{name: getattr(obj, name) for name in names}}

        return {**schema,
                "serialization": core_schema.wrap_serializer_function_ser_schema(computed)}
