"""The Jinja2 environment of every HTML page (templates in ``duplicate/templates``).

Autoescaping is on for everything; pages get ``t`` (the catalogue's translator for the
page's language), ``lang``, ``static`` (the URL prefix of ``guandan.css`` and
``movie.js``), the filters below and ``local_time(at)``: a time in the page's language and
its event's zone (the context's ``zone`` or ``info.time_zone``; :mod:`duplicate.zones`). The hall service renders the same templates with its
own ``static`` prefix.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from importlib import resources
from typing import Any

import jinja2

from duplicate import zones
from duplicate.i18n import game as vocab
from duplicate.i18n import install as install_gettext
from duplicate.i18n import normalise_language, translator


def signed(value: int | float | None) -> str:
    """``+3``, ``-2``, ``0``; ``—`` for nothing."""
    if value is None:
        return "—"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:+g}"
    return f"{int(value):+d}" if value else "0"


@jinja2.pass_context
def _when(context: Any, at: str | datetime | None, clock: bool = False) -> str:
    """The template's ``local_time(at)``: ``at`` in the page's language and the zone of the page's
    event (``zone``, else ``info.time_zone``, else UTC); ``clock=True``: the time of day."""
    zone = context.get("zone") or getattr(context.get("info"), "time_zone", None) or "UTC"
    show = zones.clock_text if clock else zones.when_text
    return show(at, str(zone), context.get("lang"))


_PARTIAL = re.compile(r"^(\d+) of (\d+) boards in$")


def status_text(status: str, lang: str) -> str:
    """A board line's status in the page's language (``not in yet`` → 尚未交齐)."""
    t = translator(lang)
    if status == "not in yet":
        return t("report.status.not_in")
    if status == "unfinished":
        return t("report.status.unfinished")
    if status == "forfeited":
        return t("report.status.forfeited")
    if status == "conceded":
        return t("report.status.conceded")
    return status  # a reason given by the director, as written


def state_text(state: str, lang: str) -> str:
    """A match's state in the page's language (``3 of 8 boards in`` → 已交3/8副)."""
    t = translator(lang)
    if state == "not played yet":
        return t("report.state.not_played")
    m = _PARTIAL.match(state)
    if m:
        return t("report.state.partial", n=m.group(1), m=m.group(2))
    return state


#: A side's label as the English pages write it (``N–S``, ``E–W``; 南北 and 东西 need
#: nothing): kept on one line (``.side`` is ``white-space: nowrap``), never broken at the
#: dash on a phone.
_SIDE = re.compile(r"(?<![\w–])(N–S|E–W)(?![\w–])")
#: What a page's side labels are not wrapped in: tags themselves (attributes), and the
#: elements whose text is no HTML (scripts, styles, the title, a form's text, SVG).
_NOT_TEXT = re.compile(
    r"<(script|style|title|textarea|option|svg)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>", re.S | re.I
)


def nowrap_sides(html: str) -> str:
    """``html`` with every side label of its text (``N–S``, ``E–W``) wrapped in
    ``<span class="side">``, which the stylesheets (guandan.css, hall.css) keep on one
    line; the text itself is unchanged. Every page goes through it (:func:`render`, the
    hall's ``duplicate.web.render.page``)."""
    if "–" not in html:
        return html
    out: list[str] = []
    pos = 0
    for m in _NOT_TEXT.finditer(html):
        out.append(_SIDE.sub(r'<span class="side">\1</span>', html[pos:m.start()]))
        out.append(m.group())
        pos = m.end()
    out.append(_SIDE.sub(r'<span class="side">\1</span>', html[pos:]))
    return "".join(out)


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The one environment: package templates, autoescape, strict undefined."""
    return make_environment(jinja2.PackageLoader("duplicate", "templates"))


def make_environment(loader: jinja2.BaseLoader) -> jinja2.Environment:
    """An environment with the pages' settings (autoescape, strict undefined), filters and
    globals over ``loader``: the review's, and the hall's (its templates in front)."""
    env = jinja2.Environment(
        loader=loader,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    install_gettext(env)
    env.filters["signed"] = signed
    env.filters["points"] = vocab.points_text  # 2, 12.5: as the command line shows them
    env.globals["vocab"] = vocab
    env.globals["state_text"] = state_text
    env.globals["status_text"] = status_text
    env.globals["local_time"] = _when
    return env


def render(template: str, lang: str = "en", static: str = "", **context: Any) -> str:
    """Render ``template`` in ``lang`` with ``context``."""
    code = normalise_language(lang)
    return nowrap_sides(environment().get_template(template).render(
        lang=code, t=translator(code), static=static, **context
    ))


def static_text(name: str) -> str:
    """The text of a file of ``duplicate/static`` (``guandan.css``, ``movie.js``)."""
    return resources.files("duplicate").joinpath("static", name).read_text(encoding="utf-8")
