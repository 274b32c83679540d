"""The tournament hall service: FastAPI pages and a JSON API on the library.

``duplicate.web.app.create_app`` builds the application; ``guandan serve`` runs it under uvicorn
(``duplicate.web.app:app_from_env``). The web layer holds no rule, score, pairing or state logic:
every read and every action is a call into :mod:`duplicate` (``duplicate.hall``,
``duplicate.events``), one transaction each, so that any worker can answer any request.

* :mod:`duplicate.web.settings`: what the service is told (database, director password, secret key);
* :mod:`duplicate.web.app`: the application, its routers, static files and limits;
* :mod:`duplicate.web.deps`, :mod:`duplicate.web.auth`: the database, table tokens, the director's session, CSRF;
* :mod:`duplicate.web.errors`: library errors as JSON (``/api``) or a page;
* :mod:`duplicate.web.api`, :mod:`duplicate.web.api_director`: the JSON API (OpenAPI at ``/api/openapi.json``);
* :mod:`duplicate.web.cards`: what a printable table card shows (URLs, QR codes);
* :mod:`duplicate.web.pages`: the table, public and desk pages.
"""
