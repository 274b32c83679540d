"""The message catalogue (duplicate.i18n): whole in both languages, and looked up right."""

from __future__ import annotations

import gettext as stdlib_gettext
import io
import re
import shutil
import subprocess
from pathlib import Path

import jinja2
import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from duplicate.i18n import (
    LOCALE_DIRS,
    CatalogueError,
    catalogue,
    check_catalogue,
    gettext,
    install,
    messages,
    negotiate,
    ngettext,
    normalise_language,
    source_ids,
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


# --- the gettext files: what translators' tools open -------------------------------------

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "duplicate" / "locale"
PO_FILES = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def test_every_area_has_a_template_and_both_languages() -> None:
    areas = sorted(p.stem for p in LOCALE.glob("*.pot"))
    assert areas and sorted(p.stem for p in PO_FILES) == sorted(areas * 2)
    assert {p.parent.parent.name for p in PO_FILES} == set(LOCALE_DIRS.values())
    assert not list(LOCALE.glob("*.toml"))  # the home-made files are gone


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt not installed")
@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_gnu_msgfmt_accepts_each_po_file(po: Path, tmp_path: Path) -> None:
    done = subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "x.mo"), str(po)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_compiled_catalogues_read_back_with_the_standard_gettext() -> None:
    """Each .po compiled to .mo (Babel) and read by Python's own gettext gives, for every
    key (msgctxt), the text the catalogue gives: the files say what the code shows."""
    for lang, folder in LOCALE_DIRS.items():
        for po in sorted((LOCALE / folder / "LC_MESSAGES").glob("*.po")):
            with po.open("rb") as f:
                catalog = read_po(f)
            buf = io.BytesIO()
            write_mo(buf, catalog)
            buf.seek(0)
            gnu = stdlib_gettext.GNUTranslations(buf)
            for m in catalog:
                if not m.id:
                    continue
                key = str(m.context)
                if isinstance(m.id, tuple):
                    for n in (1, 2, 5):
                        assert gnu.npgettext(key, m.id[0], m.id[1], n) == (
                            messages()[key][lang].text(n)), (po, key, n)
                elif m.string:
                    assert gnu.pgettext(key, m.id) == catalogue()[key][lang], (po, key)


def test_templates_hold_the_english_of_the_en_files() -> None:
    for pot in sorted(LOCALE.glob("*.pot")):
        with pot.open("rb") as f:
            template = {(m.context, m.id) for m in read_po(f) if m.id}
        with (LOCALE / "en" / "LC_MESSAGES" / f"{pot.stem}.po").open("rb") as f:
            english = {(m.context, m.id) for m in read_po(f) if m.id}
        assert template == english, pot.name


def test_plural_forms_so_that_one_round_is_not_rounds() -> None:
    en, zh = translator("en"), translator("zh")
    assert [en("count.rounds", n=n) for n in (0, 1, 2)] == ["0 rounds", "1 round", "2 rounds"]
    assert [zh("count.rounds", n=n) for n in (1, 2)] == ["1轮", "2轮"]
    assert ngettext("en", "count.boards", 1) == "1 board"
    with pytest.raises(CatalogueError, match="integer n"):
        gettext("en", "count.boards")


def test_jinja_i18n_extension_speaks_the_pages_language() -> None:
    env = jinja2.Environment(autoescape=True)
    install(env)
    page = env.from_string(
        "{{ _('place.1') }} {{ gettext('result.up', side=_('side.NS'), levels=2) }} "
        "{{ ngettext('count.boards', n) }}")
    assert page.render(lang="zh", n=1) == "头游 南北升2级 1副"
    assert page.render(lang="en", n=1) == "1st out N–S up 2 1 board"
    assert page.render(lang="en", n=3).endswith("3 boards")


def test_templates_trans_blocks_hold_the_catalogues_english() -> None:
    """Every ``{% trans "key" %}English{% endtrans %}`` of the templates, as Babel's
    extractor reads it (what ``pybabel extract`` would put in a .pot): its context is a
    key of the catalogue and its text that key's English (msgid), so that translators see
    what the page shows."""
    templates = [*sorted((ROOT / "duplicate" / "templates").glob("*.html")),
                 *sorted((ROOT / "web" / "templates").glob("*.html"))]
    found = 0
    for path in templates:
        with path.open("rb") as f:
            for _line, message, _comments, context in extract(
                "jinja2.ext:babel_extract", f, keywords=DEFAULT_KEYWORDS,
                options={"extensions": "jinja2.ext.i18n"},
            ):
                if context is None:
                    continue  # _("key") and ngettext("key", n): the key is the message
                found += 1
                ids = source_ids().get(context)
                assert ids is not None, f"{path.name}: no key {context!r}"
                text = message if isinstance(message, tuple) else (message,)
                as_braces = tuple(re.sub(r"%\((\w+)\)s", r"{\1}", t).replace("%%", "%")
                                  for t in text)
                assert as_braces == ids, f"{path.name}: {context}: {as_braces} != {ids}"
    assert found >= 60  # the report's pages speak through trans blocks


def test_trans_blocks_render_in_the_pages_language() -> None:
    env = jinja2.Environment(autoescape=True)
    install(env)
    page = env.from_string(
        '{% trans "report.round" round=r %}Round {{ round }}{% endtrans %} · '
        '{% trans "count.boards" n=k %}{{ n }} board{% pluralize %}{{ n }} boards{% endtrans %}')
    assert page.render(lang="zh", r="<b>", k=1) == "第&lt;b&gt;轮 · 1副"
    assert page.render(lang="en", r=2, k=1) == "Round 2 · 1 board"
    assert page.render(lang="en", r=2, k=4) == "Round 2 · 4 boards"
