"""The Guandan rules engine: pure, fast, no I/O (RULES.md is the authority)."""
