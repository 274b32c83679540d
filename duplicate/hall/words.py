"""Phrases the hall stores as codes, said in each page's language.

A reason the desk writes for the director (a late team's ruling: "arrived 5.7 minutes
late") is stored as a catalogue key and its values (:func:`coded`), not as an English
sentence, so that a Chinese page says it in Chinese. :func:`decoded` reads it back: a
coded reason, or one of the English sentences stored before codes were (old rows), as a
key and values; anything else a person typed is said as typed (``None``).

Who did something (``by``, ``reported_by``) is stored as the hall names it: ``director``,
``table 3 open West``; :func:`who_key` gives the key and values to say it.
"""

from __future__ import annotations

from duplicate.logtext import MARK, coded, decoded, who_key

__all__ = ["MARK", "coded", "decoded", "who_key"]
