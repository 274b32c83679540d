"""What several test modules share: set-ups too big for a fixture's body, imported
(``from helpers.hall import Hall``) or registered as plugins by tests/conftest.py."""
