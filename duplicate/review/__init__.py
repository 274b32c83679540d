"""Reviewing boards and events in the browser: Jinja2 pages from
``duplicate/templates``, the board "movie", event pages, an incremental site writer.

Modules: ``model`` (the plain data pages are drawn from), ``render`` (the Jinja2
environment), ``movie`` (a board's two rooms as JSON positions), ``pages`` (every page of
an event), ``site`` (writing only what changed), ``visibility`` (may a board's hands and plays be
shown?), ``stats`` (per-player figures). The package draws pages from plain data and reads
no database: an event's data comes from :mod:`duplicate.events.site` (and its records with
table, match and ruling tags from :func:`duplicate.events.export.export_event`).
"""
