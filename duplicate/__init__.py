"""Duplicate Guandan: boards, records, rooms, scoring and storage."""
