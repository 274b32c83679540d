"""Rule variants as a person types them, ``NAME=VALUE`` (``jiefeng_next=true``,
``bomb_max=8``), read into a :class:`~engine.ruleset.Ruleset`: what ``--variant`` of the
command line and the desk's form for a new event both take (RULES.md names the variants)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from duplicate.errors import DuplicateError
from duplicate.i18n import phrase
from engine.ruleset import Ruleset

_TRUE = ("true", "1", "yes", "on")
_BOOLS = (*_TRUE, "false", "0", "no", "off")


class VariantError(DuplicateError):
    """A variant that is not ``NAME=VALUE`` of a known variant with a value of its kind."""


def variant_names() -> list[str]:
    """The variants' names, as :class:`Ruleset` has them."""
    return [f.name for f in fields(Ruleset)]


def ruleset_of(items: Iterable[str]) -> Ruleset:
    """The rule set of the variants ``items`` (each ``NAME=VALUE``; a ``-`` in a name is
    read as ``_``); the competition rules for none."""
    kinds = {f.name: f.type for f in fields(Ruleset)}
    values: dict[str, Any] = {}
    for item in items:
        name, _, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if name not in kinds or not text.strip():
            raise VariantError(phrase("cli.err.variant_syntax", shown=repr(item),
                                      names=", ".join(kinds)))
        if kinds[name] in (bool, "bool"):
            if text.strip().lower() not in _BOOLS:
                raise VariantError(phrase("cli.err.variant_bool", shown=repr(item), name=name))
            values[name] = text.strip().lower() in _TRUE
        else:
            try:
                values[name] = int(text)
            except ValueError:
                raise VariantError(phrase("cli.err.variant_number", shown=repr(item),
                                          name=name)) from None
    try:
        return Ruleset.from_dict(values)
    except ValueError as exc:
        raise VariantError(str(exc)) from None
