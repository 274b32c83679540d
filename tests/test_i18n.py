"""The message catalogue (duplicate.i18n): whole in both languages, and looked up right."""

from __future__ import annotations

import pytest

from duplicate.i18n import (
    CatalogueError,
    check_catalogue,
    gettext,
    negotiate,
    normalise_language,
    translator,
)


def test_every_message_has_both_languages_with_the_same_placeholders() -> None:
    assert check_catalogue() == []


def test_lookup_fills_placeholders_in_each_language() -> None:
    side = gettext("zh", "side.EW")
    assert gettext("zh", "result.up", side=side, levels=3) == "东西升3级"
    assert translator("en")("result.up", side="N–S", levels=2) == "N–S up 2"
    assert translator("zh-CN")("place.1") == "头游"


def test_unknown_key_is_an_error() -> None:
    with pytest.raises(CatalogueError, match="no message 'nope'"):
        gettext("en", "nope")


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh"),
        ("en-US,en;q=0.9,zh;q=0.8", "en"),
        ("fr-FR,fr;q=0.9", "en"),
        ("fr, zh;q=0.5", "zh"),
        ("zh;q=0, en;q=0.1", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_accept_language_negotiation(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


def test_language_names_are_normalised() -> None:
    assert normalise_language("zh_Hans") == "zh"
    assert normalise_language("EN-gb") == "en"
    assert normalise_language("de") == "en"
