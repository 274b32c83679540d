"""The hall service's HTML pages, one router a module (each router's paths absolute):

* :mod:`web.pages.table`: a table's phone pages (``/t/{token}``): West reports, North
  confirms or disputes (the token is the credential; Post/Redirect/Get);
* :mod:`web.pages.public`: the public pages (``/``, ``/e/{event}`` ...): events, live
  standings, the draw, a match board by board, a board's two rooms once released;
* :mod:`web.pages.desk`: the director's desk.

Pages render through :func:`web.render.page` and hold no rule, score or state logic:
they call :mod:`duplicate.hall` and :mod:`duplicate.events`.
"""
