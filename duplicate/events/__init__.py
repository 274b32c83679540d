"""Teams events in the database: teams, rounds, matches, seating, results, standings.

What ``guandan event`` calls (docs/EVENTS.md). An event has teams of four to six players,
split into pairs; each round pairs the teams (Swiss through :mod:`duplicate.pairing`, or a
round robin), plays a slice of a stored board set, and seats every match in two rooms
(RULES.md §11): open room X's pair N–S and Y's pair E–W, closed room Y's other pair N–S and
X's other pair E–W, on the same boards.

* Records are accepted into a match only when they replay cleanly, their board is the
  round's board of that number (same hands, level and leader) and their players are the
  seating's; importing the same record again changes nothing, and a different record for a
  board and room already filled is refused unless it is a correction (who, why).
* Unfinished boards (time, withdrawal) are stored as such and scored by the event's rule
  (``scoring.UnfinishedRule``), never dropped.
* Standings are always recomputed from the stored results (:mod:`duplicate.standings`),
  never stored, so a correction changes every standing after it.
* Every import, scoring and correction is one transaction (``db.session_scope``): an error
  leaves the database as it was.
* An event has one rule set (``engine.ruleset.Ruleset``, ``events.rules``; default the
  competition rules, RULES.md): every record is replayed under it, the bots play under it,
  results are checked and scored under it (``double_down_plus4``: ±4 results, swings up to
  ±8, RULES.md §7) and the report compares the rooms under it.

The package, by responsibility (each module re-exported here, so ``from duplicate import
events`` and ``events.pair_round`` work as before):

* :mod:`~duplicate.events.base`: errors, plain data, and the lookups of stored rows;
* :mod:`~duplicate.events.field`: the event, its settings and rules, teams, players, pairs;
* :mod:`~duplicate.events.rounds`: pairing, seating, the boards a round plays;
* :mod:`~duplicate.events.imports`: records read, replayed, checked and stored;
* :mod:`~duplicate.events.batch`: an import file by file, one outcome a file;
* :mod:`~duplicate.events.results`: unfinished boards, rulings, corrections and their log;
* :mod:`~duplicate.events.waiting`: a table's report that waits, set aside when the
  director decides its board;
* :mod:`~duplicate.events.limit`: the directors' limit on changing a published result
  (and the chief director's override);
* :mod:`~duplicate.events.scores`: scores and standings, recomputed from the results;
* :mod:`~duplicate.events.bots`: the self-play bots playing a round;
* :mod:`~duplicate.events.export`: the records as ``.gdn`` and the report's data;
* :mod:`~duplicate.events.eventtags`, :mod:`~duplicate.events.restore`: the whole export's
  tags of the event (settings, teams, results no record gives) and the event made again
  from its export alone;
* :mod:`~duplicate.events.release`: which boards players may see (released boards);
* :mod:`~duplicate.events.log`: the log of a director's changes (who, when, why);
* :mod:`~duplicate.events.admin`: names fixed, substitutes, withdrawals, the time zone,
  the order of tie-breaks, deletions.
"""

from __future__ import annotations

from duplicate.events.admin import (
    delete_board_set,
    delete_event,
    rename_player,
    rename_team,
    set_tiebreaks,
    set_time_zone,
    substitute_player,
    withdraw_team,
    withdrawals,
)
from duplicate.events.base import (
    FORMATS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROOMS,
    EventError,
    EventInfo,
    ImportSummary,
    MatchInfo,
    Progress,
    RoundInfo,
    TeamInfo,
)
from duplicate.events.batch import FileOutcome, import_each
from duplicate.events.bots import (
    BOT_POLICIES,
    MAX_ERROR_RATE,
    MixedPlayer,
    bot_records,
    play_bots,
    team_error_rate,
)
from duplicate.events.export import (
    event_report,
    export_name,
    export_records,
    write_event_report,
)
from duplicate.events.field import (
    add_team,
    add_teams_file,
    create_event,
    event_rules,
    get_event,
    list_events,
    list_teams,
    parse_teams_file,
    read_teams_file,
)
from duplicate.events.imports import (
    Prepared,
    import_files,
    import_prepared,
    import_texts,
    prepare_text,
)
from duplicate.events.limit import DirectorLimitError, director_minutes, set_director_minutes
from duplicate.events.log import admin_log
from duplicate.events.release import release_board, released_boards, unreleased_boards
from duplicate.events.restore import restore_event
from duplicate.events.results import (
    correct_result,
    list_corrections,
    parse_result,
    record_unfinished,
    report_result,
    result_log,
    result_slot,
    room_history,
)
from duplicate.events.rounds import (
    assign_boards,
    event_board_set,
    event_set_name,
    get_round,
    list_matches,
    pair_round,
)
from duplicate.events.scores import (
    BoardRow,
    ScoredBye,
    ScoredMatch,
    event_standings,
    match_boards,
    round_byes,
    score_event,
)
from duplicate.records import Correction

__all__ = [
    "BOT_POLICIES",
    "FORMATS",
    "MAX_ERROR_RATE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ROOMS",
    "BoardRow",
    "Correction",
    "EventError",
    "EventInfo",
    "FileOutcome",
    "DirectorLimitError",
    "ImportSummary",
    "MatchInfo",
    "MixedPlayer",
    "Prepared",
    "Progress",
    "RoundInfo",
    "ScoredBye",
    "ScoredMatch",
    "TeamInfo",
    "add_team",
    "admin_log",
    "add_teams_file",
    "assign_boards",
    "bot_records",
    "correct_result",
    "create_event",
    "delete_board_set",
    "delete_event",
    "director_minutes",
    "event_board_set",
    "event_report",
    "event_rules",
    "event_set_name",
    "event_standings",
    "export_name",
    "export_records",
    "restore_event",
    "get_event",
    "get_round",
    "import_each",
    "import_files",
    "import_prepared",
    "import_texts",
    "list_corrections",
    "result_log",
    "list_events",
    "list_matches",
    "list_teams",
    "match_boards",
    "pair_round",
    "parse_result",
    "parse_teams_file",
    "play_bots",
    "prepare_text",
    "read_teams_file",
    "record_unfinished",
    "report_result",
    "result_slot",
    "room_history",
    "release_board",
    "rename_player",
    "rename_team",
    "released_boards",
    "round_byes",
    "score_event",
    "set_director_minutes",
    "set_tiebreaks",
    "set_time_zone",
    "substitute_player",
    "team_error_rate",
    "unreleased_boards",
    "withdraw_team",
    "withdrawals",
    "write_event_report",
]
