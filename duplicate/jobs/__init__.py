"""Analysis of an event's records as jobs: one job a record, keyed by the record's key.

* :mod:`.work`: a job (:class:`~.work.AnalysisJob`, plain JSON data: the record as
  ``.gdn`` text, the rules, the budget) and :func:`~.work.compute`, the one function that
  analyses it (``duplicate.review.analysis.analyse_record``).
* :mod:`.stored`: the ``analyses`` table (one row a key; a second store is a no-op) and an
  event's requested keys, its progress, and the report's store that reads them.
* :mod:`.event`: the jobs of an event (every room of every board with both records).
* :mod:`.local`: on SQLite (or anywhere), the jobs run in local processes.
* :mod:`.queue`: on PostgreSQL, the jobs go to procrastinate's queue in the event's
  database, and ``guandan worker`` processes on any host take them.

The same record and budget give the same analysis whichever process computed it.
"""
