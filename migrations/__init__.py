"""Alembic migrations of the guandan-duplicate database.

An importable package so that :func:`duplicate.db.migrations_dir` finds it from the
installed distribution and ``guandan db upgrade`` works from any directory. Add a revision
with ``alembic -c migrations/alembic.ini revision --autogenerate -m "..."`` after changing
``duplicate/models.py``.
"""
