"""Bring the catalogue's domain ``click`` up to the installed click: every msgid its
modules word (commands.clickwords.click_msgids) gets a key ``click.<slug>`` in
``duplicate/locale/click.pot`` and both ``.po`` files; a text the Chinese file already
has is kept, a new msgid gets an empty Chinese text (check_catalogue then names it until a
translator fills it). Messages click no longer has are dropped.

    python tools/click_catalogue.py        # rewrite the three files
    python tools/click_catalogue.py --check  # exit 1 when they are not up to date
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from duplicate.commands.clickwords import click_msgids  # noqa: E402

LOCALE = ROOT / "duplicate" / "locale"
DOMAIN = "click"
FILES = {"pot": LOCALE / f"{DOMAIN}.pot",
         "en": LOCALE / "en" / "LC_MESSAGES" / f"{DOMAIN}.po",
         "zh_CN": LOCALE / "zh_CN" / "LC_MESSAGES" / f"{DOMAIN}.po"}
HEADER = f"{DOMAIN}: the guandan-duplicate catalogue (msgctxt = key)."


def slug(msgid: str) -> str:
    """``Missing argument`` -> ``missing_argument``; placeholders by their names."""
    words = re.findall(r"[a-z0-9]+", re.sub(r"\{(\w+)[^}]*\}", r" \1 ", msgid).lower())
    return "_".join(words)[:60].rstrip("_") or "text"


def keyed(msgids: list[str], known: dict[str, str]) -> dict[str, str]:
    """msgid -> key: the key it had, else ``click.<slug>`` (a number added when taken)."""
    out: dict[str, str] = {}
    taken = set()
    for msgid in msgids:
        key = known.get(msgid)
        if key is None:
            base = f"click.{slug(msgid)}"
            key, n = base, 2
            while key in taken or key in known.values():
                key, n = f"{base}_{n}", n + 1
        out[msgid] = key
        taken.add(key)
    return out


def _old(path: Path, locale: str | None) -> Catalog:
    if not path.exists():
        return Catalog(locale=locale, domain=DOMAIN)
    with path.open("rb") as f:
        return read_po(f, locale=locale, domain=DOMAIN)


def catalogues() -> dict[str, bytes]:
    """The three files' new text."""
    import io

    zh_old = _old(FILES["zh_CN"], "zh_CN")
    known = {str(m.id): str(m.context) for m in zh_old if m.id and m.context}
    texts = {str(m.id): str(m.string or "") for m in zh_old if m.id}
    keys = keyed(click_msgids(), known)
    out = {}
    for name, path in FILES.items():
        catalog = Catalog(locale=None if name == "pot" else name, domain=DOMAIN,
                          project="guandan-duplicate", version="1",
                          copyright_holder="", msgid_bugs_address="EMAIL@ADDRESS",
                          header_comment=f"# {HEADER}", charset="utf-8", fuzzy=False)
        catalog.last_translator = "guandan-duplicate"
        catalog.language_team = "guandan-duplicate"
        for msgid, key in keys.items():
            catalog.add(msgid, texts.get(msgid, "") if name == "zh_CN" else "", context=key,
                        flags=("python-brace-format",) if "{" in msgid else ())
        buf = io.BytesIO()
        write_po(buf, catalog, width=0, omit_header=False)
        text = buf.getvalue()
        old = path.read_bytes() if path.exists() else b""
        out[name] = _keep_dates(text, old)
    return out


def _keep_dates(text: bytes, old: bytes) -> bytes:
    """The header's creation date as the file had it (no change when nothing changed)."""
    found = re.search(rb'"POT-Creation-Date: [^"]*"', old)
    if found is None:
        return text
    return re.sub(rb'"POT-Creation-Date: [^"]*"', lambda _m: found.group(0), text)


def main(argv: list[str]) -> int:
    new = catalogues()
    if "--check" in argv:
        stale = [str(FILES[n]) for n, t in new.items()
                 if not FILES[n].exists() or FILES[n].read_bytes() != t]
        for path in stale:
            print(f"not up to date with the installed click: {path}", file=sys.stderr)
        return 1 if stale else 0
    for name, text in new.items():
        FILES[name].write_bytes(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
