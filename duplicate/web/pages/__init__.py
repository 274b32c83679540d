"""The hall service's HTML pages, one router a module (each router's paths absolute):

* :mod:`duplicate.web.pages.table`: a table's phone pages (``/t/{token}``): West reports, North
  confirms or disputes (the token is the credential; Post/Redirect/Get);
* :mod:`duplicate.web.pages.public`: the public pages (``/``, ``/e/{event}`` ...): events, live
  standings, the draw, a match board by board, a board's two rooms once released;
* :mod:`duplicate.web.pages.desk`: the director's desk.

Pages render through :func:`duplicate.web.render.page` and hold no rule, score or state logic:
they call :mod:`duplicate.hall` and :mod:`duplicate.events`.
"""
