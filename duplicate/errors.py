"""The ``duplicate`` package's own exceptions.

Every error raised for bad input or a refused operation derives from :class:`DuplicateError`,
so that the command line can turn it into one clear line and exit code 1. Other modules of
the package add their own subclasses here (keep this file small and additive).
"""

from __future__ import annotations

from duplicate.i18n import Phrase


class DuplicateError(Exception):
    """Base of every error the ``duplicate`` package raises for bad input or a refused action.

    The message says what is wrong and what would be right in words any caller can use:
    English text, or a catalogue :class:`~duplicate.i18n.Phrase` (the refusals a table's
    phone or the director's desk may show), English as ``str()`` and in the asker's
    language as :meth:`text`. ``cli_hint`` (optional) is how to do it at the command line
    (``--by NAME --reason TEXT``, ``guandan event create``; a :class:`Phrase` when it holds
    words): the command line adds it after the message, the web service and the library's
    other callers leave it out."""

    def __init__(self, *args: object, cli_hint: str | Phrase | None = None) -> None:
        first = args[0] if args else None
        self.phrase = first if isinstance(first, Phrase) else None
        super().__init__(*((str(first), *args[1:]) if self.phrase is not None else args))
        self.cli_hint = cli_hint

    def text(self, lang: str | None) -> str:
        """The message in ``lang`` (English when it is not from the catalogue)."""
        return self.phrase.text(lang) if self.phrase is not None else str(self)


class PhrasedError(Exception):
    """Base for an error that is not a :class:`DuplicateError` (a pairing's or a score's,
    which are ``engine.errors.GuandanError``) whose message may be a catalogue
    :class:`~duplicate.i18n.Phrase`: ``str()`` is the English, :meth:`text` another
    language. Put it first among the bases: ``class PairingError(PhrasedError, GuandanError)``."""

    def __init__(self, message: str | Phrase = "") -> None:
        self.phrase = message if isinstance(message, Phrase) else None
        super().__init__(str(message))

    def text(self, lang: str | None) -> str:
        """The message in ``lang`` (English when it is not from the catalogue)."""
        return self.phrase.text(lang) if self.phrase is not None else str(self)


class DatabaseUrlError(DuplicateError):
    """A database URL that SQLAlchemy cannot use."""


class DatabaseError(DuplicateError):
    """A database that cannot be reached, or whose schema is not at the newest migration."""


class SeedFileError(DuplicateError):
    """A seed file that is missing, malformed, or would be overwritten."""


class LevelScheduleError(DuplicateError):
    """A level schedule specification that is not ``fixed[:LEVEL]``, ``cycle`` or ``random``."""


class GeneratorError(DuplicateError):
    """An unknown generator id, or a generator called with invalid arguments."""


class BoardExistsError(DuplicateError):
    """A board (same DealId) or board set (same name) that is already stored."""


class BoardSetNotFoundError(DuplicateError):
    """A board set or board that the database does not hold."""


class VerificationError(DuplicateError):
    """A seed that does not match its commitment, or boards that do not match their seed."""
