"""One build of an event's report writes both languages: the folder's language in the
folder, the other in its subfolder, each page linking the same page in the other
language; every record is analysed once for both (one analysis store), a second build
analyses and writes nothing, and a build whose folder language changes leaves no stale
subfolder behind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import duplicate.review.analysis as review_analysis
from duplicate.analysis.budget import Budget
from duplicate.db import make_engine
from duplicate.demo import run_demo
from duplicate.events.site import write_event_site

BUDGET = Budget(nodes=500, playouts=2, seed=3)


@pytest.fixture
def demo(tmp_path: Path) -> tuple[str, str]:
    url = f"sqlite:///{tmp_path}/demo.sqlite"
    return url, run_demo(url, tmp_path / "demo", seed="77aa", boards=2).event


def test_both_languages_from_one_analysis(demo: tuple[str, str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    url, event = demo
    made: list[Any] = []
    annotate = review_analysis.annotate

    def counted(record: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(record)
        return annotate(record, *args, **kwargs)

    monkeypatch.setattr(review_analysis, "annotate", counted)
    site = tmp_path / "site"
    engine = make_engine(url)
    try:
        first = write_event_site(engine, event, str(site), "zh", BUDGET, both=True)
        assert len(made) == 4  # 2 boards, 2 rooms: each record once, for both languages
        zh = sorted(p.name for p in site.glob("*.html"))
        en = sorted(p.name for p in (site / "en").glob("*.html"))
        assert zh == en and "board-r1-t1-1.html" in zh
        assert first.boards_drawn == 4  # 2 boards in each language
        assert '<html lang="zh-CN">' in (site / "index.html").read_text(encoding="utf-8")
        assert '<html lang="en">' in (site / "en/index.html").read_text(encoding="utf-8")
        for name in zh:
            assert f'href="en/{name}"' in (site / name).read_text(encoding="utf-8")
            assert f'href="../{name}"' in (site / "en" / name).read_text(encoding="utf-8")
        again = write_event_site(engine, event, str(site), "zh", BUDGET, both=True)
        assert len(made) == 4 and again.boards_drawn == 0 and again.written == ()
        # the folder in English now: Chinese in zh/, no English left in en/
        write_event_site(engine, event, str(site), "en", BUDGET, both=True)
        assert not (site / "en").exists()
        assert '<html lang="zh-CN">' in (site / "zh/index.html").read_text(encoding="utf-8")
        assert len(made) == 4  # the analyses kept in the folder serve the rebuild
    finally:
        engine.dispose()
