"""HTML pages of the hall service: ``page(request, template, **context)``.

One Jinja2 environment (autoescape on, strict undefined) whose loader sees
``duplicate/web/templates`` first and ``duplicate/templates`` second, so hall pages extend the
project's ``base.html`` (and may import ``cards.html``) exactly as the review pages do.
Every page gets the context of ``base.html`` (``lang``, ``t``, ``static``, ``vocab``; see
that file's header and :mod:`duplicate.review.render`), the review's filters
(``signed``; and ``pathpart``: a name as one URL path segment) and globals (``state_text``, ``status_text``, ``local_time``: a time in the event's zone,
which a page names as ``zone`` or ``info``), plus:

* ``request`` (the Starlette request), ``csrf`` (the director session's CSRF token, ``""``
  without a session: desk forms post it as the hidden field ``csrf``);
* ``hall_static`` (``/static/hall/``: hall.css and the hall's scripts);
* ``lang_url(code)``: this page's URL in another language (``?lang=zh``, the other query
  parameters kept), ``other_lang`` (the language the switch link offers) and
  ``other_lang_name`` (its name in itself: 中文, English).

The language is, in order: ``?lang=`` (remembered in the ``lang`` cookie for a year), the
``lang`` cookie, the ``Accept-Language`` header (zh first when it prefers Chinese),
English. Every answer says ``Vary: Accept-Language, Cookie`` and
``Referrer-Policy: no-referrer`` (a table page's URL holds its token: no other site may
see it in a Referer header).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse

from duplicate.i18n import LANGUAGES, translator
from duplicate.i18n.stored import finish_said, reason_said, said, unfinished_said, who_said
from duplicate.review.render import make_environment, nowrap_sides
from duplicate.web.auth import csrf_token
from duplicate.web.context import LANG_COOKIE, asked_language, language_of

TEMPLATES = Path(__file__).parent / "templates"
STATIC = "/static/"
HALL_STATIC = "/static/hall/"
_YEAR = 365 * 24 * 3600


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The hall's one environment: duplicate/web/templates, then the project's templates."""
    env = make_environment(
        jinja2.ChoiceLoader(
            [
                jinja2.FileSystemLoader(str(TEMPLATES)),
                jinja2.PackageLoader("duplicate", "templates"),
            ]
        )
    )
    env.filters["pathpart"] = pathpart
    env.globals.update(finish_said=finish_said, unfinished_said=unfinished_said,
                       reason_said=reason_said, who_said=who_said, said_text=said)
    return env


def pathpart(value: object) -> str:
    """``value`` as one URL path segment (``/`` too is escaped: ``A/B`` -> ``A%2FB``)."""
    return quote(str(value), safe="")


def lang_url(request: Request, code: str) -> str:
    """This page's path with ``?lang=code`` (the other query parameters kept)."""
    params = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
    params.append(("lang", code))
    return f"{request.url.path}?{urlencode(params)}"


def page(request: Request, template: str, **context: Any) -> HTMLResponse:
    """Render ``template`` for ``request`` in its language, as a 200 HTML answer (the
    caller may change ``status_code``). ``context`` may override nothing of base.html's."""
    lang = language_of(request)
    other = next(code for code in LANGUAGES if code != lang)
    values: dict[str, Any] = {
        "lang": lang,
        "t": translator(lang),
        "static": STATIC,
        "hall_static": HALL_STATIC,
        "request": request,
        "csrf": csrf_token(request),
        "other_lang": other,
        "other_lang_name": translator(other)("lang.name"),
        "lang_url": lambda code: lang_url(request, code),
    }
    values.update(context)
    html = nowrap_sides(environment().get_template(template).render(**values))
    response = HTMLResponse(html)
    response.headers["Vary"] = "Accept-Language, Cookie"
    response.headers["Content-Language"] = "zh-CN" if lang == "zh" else "en"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    if asked_language(request) and request.cookies.get(LANG_COOKIE) != lang:
        response.set_cookie(LANG_COOKIE, lang, max_age=_YEAR, path="/", samesite="lax")
    return response


def attachment(filename: str) -> dict[str, str]:
    """The headers offering a download as ``filename`` (any characters: the RFC 6266
    ``filename*`` in UTF-8, and an ASCII ``filename`` for old browsers)."""
    plain = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_"
                    for c in filename)
    return {"Content-Disposition":
            f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"}
