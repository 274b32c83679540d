"""An agent's name as the arena takes it: it begins its clients' ids (``/game/<name>-1``),
which carry only these characters. Kept apart from the matches and tournaments that use
it, so that the command line checks a name without importing them."""

from __future__ import annotations

import re

#: an agent's name: it begins its clients' ids (``<name>-1``), which take these characters
AGENT_NAME = re.compile(r"[A-Za-z0-9._~@+=-]{1,60}")
