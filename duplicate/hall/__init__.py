"""The tournament hall service's library: tables report by phone, the director
runs the rounds, results go public as they come in. No HTTP here: ``web/`` calls these.

Every call is one transaction (``db.session_scope``); a refusal raises :class:`HallError`
(``kind``: not_found, forbidden, conflict, invalid, closed) and leaves the database as it
was. The modules, by responsibility:

* :mod:`~duplicate.hall.base`: the error, the plain data (frozen, ``to_dict``), lookups;
* :mod:`~duplicate.hall.tokens`: table tokens (issued per table, room and role, stored as
  SHA-256, void when reissued, dead when the round's correction window is over);
* :mod:`~duplicate.hall.clock`: the round clock (start, warning, over, closed, published),
  check-in (签到) and lateness (seeds/004 rules 3–6);
* :mod:`~duplicate.hall.reports`: West's reports, North's confirmations and disputes; a
  confirmed report is written to the store through ``duplicate.events``;
* :mod:`~duplicate.hall.decided`: a board a ruling conceded or forfeited takes no report
  (refused by the database in the report's transaction);
* :mod:`~duplicate.hall.director`: the desk's views, settling disputes, closing (scoring)
  and publishing (公示) a round, corrections, the late rulings due;
* :mod:`~duplicate.hall.requests`: a table's change after publication, a request the
  director accepts or dismisses;
* :mod:`~duplicate.hall.outcomes`: each room's one result as every view shows it (the
  order it was counted from, who set it) and the results changed since publication;
* :mod:`~duplicate.hall.pending`: the director confirms or dismisses a report that waits;
* :mod:`~duplicate.hall.rulings`: warnings, violations, fouls, late arrivals, forfeits and
  their effects (assigned room results, conceded boards, forfeited matches);
* :mod:`~duplicate.hall.public`: the draw, live standings, a match board by board, which
  boards are released, and the cheap ``results_version`` and ``standings_version`` (the
  standings' ETag), made in :mod:`~duplicate.hall.versions`;
* :mod:`~duplicate.hall.checks`: finishing orders and records checked, confirmed
  reports written to the store;
* :mod:`~duplicate.hall.views`: the data the views return (table view, desk, rulings,
  draw, standings, public match);
* :mod:`~duplicate.hall.rows` and :mod:`~duplicate.hall.status`: lookups inside a
  transaction, and the state of every board of a table and room.

The phrases the hall stores as codes are said by :mod:`duplicate.i18n.stored`.

Storage (``duplicate.models``, migration ``0008``): ``hall_rounds`` (the clock),
``hall_tokens`` (SHA-256 of each token), ``hall_checkins``, ``hall_reports`` (West's
reports; a unique key on (round, table, room, board, live) keeps at most one live report
per board and room, under concurrency too) and ``hall_rulings``. A report is not a result:
it counts once North confirms it (or the director settles it), when it is written to the
store (``duplicate.store``'s log: who, when, why) through the library's own paths. Scores
and standings stay the library's (``duplicate.events``), which honour conceded boards and
forfeits from ``hall_rulings``. Nothing is kept in memory between calls but the fact that
an engine's schema was checked, so any number of workers can serve the same hall.
"""

from __future__ import annotations

from duplicate.hall.base import (
    ARRIVAL,
    BOARD_STATES,
    CATEGORIES,
    EFFECTS,
    KINDS,
    PHASES,
    REPORT_STATES,
    ROLES,
    Arrival,
    BoardStatus,
    Clock,
    Decision,
    Grant,
    HallError,
    Preview,
    Report,
    Seat4,
    TableCard,
)
from duplicate.hall.checks import preview_finish
from duplicate.hall.clock import (
    CLOCK_SETTINGS,
    MAX_CLOCK_MINUTES,
    MAX_MOVE,
    ClockSetting,
    arrivals,
    check_in,
    move_clock,
    pause_clock,
    resume_clock,
    round_clock,
    start_round,
)
from duplicate.hall.director import (
    close_round,
    director_correct,
    disputes,
    late_rulings_due,
    publish_round,
    round_status,
    rule_late,
    settle_dispute,
)
from duplicate.hall.outcomes import (
    PublishedChange,
    RoomOutcome,
    RoomState,
    board_outcomes,
    corrections,
)
from duplicate.hall.pending import director_confirm, director_dismiss, pending_reports
from duplicate.hall.public import (
    board_released,
    current_round,
    draw,
    live_standings,
    public_clock,
    public_match,
    results_version,
    standings_version,
)
from duplicate.hall.reports import (
    north_confirm,
    north_dispute,
    table_view,
    west_report,
)
from duplicate.hall.requests import accept_request, dismiss_request, table_requests
from duplicate.hall.rulings import record_ruling, rulings
from duplicate.hall.tokens import cards_again, grant_for, issue_tokens
from duplicate.hall.views import (
    DrawRow,
    LiveStandings,
    MatchBoard,
    PublicMatch,
    RoomStatus,
    Ruling,
    TableView,
)

__all__ = [
    "ARRIVAL",
    "BOARD_STATES",
    "CATEGORIES",
    "CLOCK_SETTINGS",
    "EFFECTS",
    "KINDS",
    "MAX_CLOCK_MINUTES",
    "MAX_MOVE",
    "PHASES",
    "REPORT_STATES",
    "ROLES",
    "Arrival",
    "BoardStatus",
    "Clock",
    "ClockSetting",
    "Decision",
    "DrawRow",
    "Grant",
    "HallError",
    "LiveStandings",
    "MatchBoard",
    "Preview",
    "PublicMatch",
    "PublishedChange",
    "Report",
    "RoomOutcome",
    "RoomState",
    "RoomStatus",
    "Ruling",
    "Seat4",
    "TableCard",
    "TableView",
    "accept_request",
    "arrivals",
    "board_outcomes",
    "board_released",
    "cards_again",
    "check_in",
    "close_round",
    "corrections",
    "current_round",
    "director_confirm",
    "director_correct",
    "dismiss_request",
    "director_dismiss",
    "disputes",
    "draw",
    "grant_for",
    "issue_tokens",
    "late_rulings_due",
    "live_standings",
    "move_clock",
    "north_confirm",
    "north_dispute",
    "pause_clock",
    "pending_reports",
    "preview_finish",
    "public_clock",
    "public_match",
    "publish_round",
    "record_ruling",
    "results_version",
    "standings_version",
    "resume_clock",
    "round_clock",
    "round_status",
    "rule_late",
    "rulings",
    "settle_dispute",
    "start_round",
    "table_requests",
    "table_view",
    "west_report",
]
