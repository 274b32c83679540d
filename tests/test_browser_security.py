"""The Content-Security-Policy in a real browser (Chromium, which enforces it): the API's
documentation renders from the installed package's files, and the desk's inline scripts
run with their nonce, with no violation reported on the way."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from tests.conftest_browser import browser  # noqa: F401  (a fixture)
from tests.test_browser_desk import PASSWORD, service  # noqa: F401  (a fixture)


def watch(page: Any) -> tuple[list[str], list[str]]:
    """The page's console errors and uncaught exceptions, and the addresses that answered
    an error, as they come."""
    seen: list[str] = []
    failed: list[str] = []
    page.on("console", lambda m: seen.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.append(str(e)))
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    return seen, failed


def test_docs_and_desk_run_under_the_policy(
    browser: Any, service: tuple[str, Engine],  # noqa: F811
) -> None:
    base, _engine = service
    context = browser.new_context()
    page = context.new_page()
    errors, failed = watch(page)
    page.goto(f"{base}/api/docs")
    page.wait_for_selector(".opblock", timeout=20_000)  # Swagger UI drew the operations
    assert page.locator(".auth-wrapper .authorize").count() == 1  # the security schemes
    page.goto(f"{base}/api/redoc")
    page.wait_for_selector("text=Guandan tournament hall", timeout=20_000)
    page.goto(f"{base}/desk/login")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/desk")
    assert page.evaluate("typeof window.deskTimes") == "function"  # the nonce let it run
    violations = [e for e in errors if "Content Security Policy" in e or "CSP" in e]
    # ReDoc's "powered by" logo is an image on its CDN: the policy blocks it (nothing of
    # a third party loads), and that is the only thing it blocks
    assert all("img-src" in v and "cdn.redoc.ly" in v for v in violations), violations
    assert [u for u in failed if not u.endswith("/favicon.ico")] == []  # no page has one
    assert [e for e in errors if e not in violations and "404" not in e] == []
    context.close()
