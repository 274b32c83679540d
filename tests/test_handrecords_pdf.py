"""PDF hand records (optional: WeasyPrint, ``pip install 'guandan-duplicate[pdf]'``)."""

from __future__ import annotations

import importlib.util

import pytest

from duplicate.boards import generate_set
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.handrecords import render_pdf


@pytest.mark.skipif(importlib.util.find_spec("weasyprint") is None,
                    reason="WeasyPrint is an optional extra: pip install -e '.[pdf]'")
def test_pdf_hand_records() -> None:
    seed = parse_seed_file(seed_file_bytes(bytes(range(32))))
    pdf = render_pdf(generate_set(seed, 4, "cup"), lang="zh")
    assert pdf.startswith(b"%PDF-") and len(pdf) > 5000
