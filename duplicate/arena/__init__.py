"""The arena: AI agents play Guandan over the Guandan AI competition protocol.

The protocol (``docs/spec/PROTOCOL.md``, dialect C: WebSocket + JSON, ``notify``/``act``
messages, ``actionList`` and ``{"actIndex": i}``) is spoken by :mod:`duplicate.arena.server`; the
games it runs are duplicate matches (:mod:`duplicate.arena.duplicate_match`), tournaments of them
(:mod:`duplicate.arena.tournament`) and ordinary matches with tribute (:mod:`duplicate.arena.ordinary`).
:mod:`duplicate.arena.agent` connects one of our bots to any server of the protocol, and
:mod:`duplicate.arena.openguandan` turns an OpenGuanDan table's JSON-lines log into ``.gdn``
records. See docs/ARENA.md.
"""
