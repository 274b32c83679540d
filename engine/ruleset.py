"""The rule set: every named variant of RULES.md in one frozen object.

Defaults are the competition rules (RULES.md, chiefly the Jiangsu competition rules).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Level-independent rules and the named variants of RULES.md.

    Attributes:
        joker_pair_in_full_house: a pair of jokers may be the pair of a full house (§3).
        bomb_max: the largest bomb, in cards (§3: 8 natural cards plus 2 wilds = 10).
        jiefeng_next: 接风 goes to the next player (下家) instead of the partner (§6).
        double_down_plus4: a double down gains 4 levels instead of 3 (§7).
        a_fail_limit: failures at A after which a side goes back to 2; 0 = never (§8).
        limit_draw: a match ended by a deal limit or time with equal levels is a draw,
            instead of one more deal deciding it (§8).
        return_max_rank: highest natural rank index a return card may have (§9; 8 = ten).
        return_lower_at_ten: when the level is 10, the return limit drops to 9 (§9 variant).
    """

    joker_pair_in_full_house: bool = True
    bomb_max: int = 10
    jiefeng_next: bool = False
    double_down_plus4: bool = False
    a_fail_limit: int = 0
    return_max_rank: int = 8
    return_lower_at_ten: bool = False
    limit_draw: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in (bool, "bool") and not isinstance(value, bool):
                raise ValueError(f"{f.name} must be True or False, not {value!r}")
            if f.type in (int, "int") and (not isinstance(value, int) or isinstance(value, bool)):
                raise ValueError(f"{f.name} must be an int, not {value!r}")
        if not 4 <= self.bomb_max <= 10:
            raise ValueError(f"bomb_max must be between 4 and 10, not {self.bomb_max}")
        if self.a_fail_limit < 0:
            raise ValueError(f"a_fail_limit must be 0 (never) or positive, not {self.a_fail_limit}")
        if not 0 <= self.return_max_rank <= 12:
            raise ValueError(f"return_max_rank must be a rank index 0..12, not {self.return_max_rank}")

    def return_limit(self, level: int) -> int:
        """Highest natural rank index a return card may have at ``level`` (RULES.md §9)."""
        if self.return_lower_at_ten and level == 8:
            return min(self.return_max_rank, 7)
        return self.return_max_rank

    def to_dict(self) -> dict[str, Any]:
        """The rule set as a plain dict, every variant (for JSON and the database)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        """Build from :meth:`to_dict` output; unknown keys are an error."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rule variant(s): {', '.join(sorted(unknown))}")
        return cls(**data)


#: The competition rules.
COMPETITION = Ruleset()
