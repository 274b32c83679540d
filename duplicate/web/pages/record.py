"""The recorder's page: ``/r/{token}`` (a recorder's card's QR code; the token is the only
credential). A phone or tablet beside the table shows the round's boards; a board the
table starts shows its four hands, whose turn it is and the play to beat; the recorder
taps the cards of a play then the seat's Play button (the hall's engine gives the
readings of those cards; when wild hearts leave several, the recorder picks one), or the
seat's Pass, and Undo takes back the last action. ``capture.js`` speaks the device protocol (docs/CAPTURE.md) to
``/api/capture/{token}``: each entry numbered and kept on the phone until acknowledged,
so a phone that drops the network keeps its entries, says it is offline and sends them
when it is back. Every rule is the library's (``duplicate.capture``): the page shows what
the server answers, refusals included, in the page's language."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import Response

from duplicate import capture
from duplicate.i18n import translator
from duplicate.web.context import language_of
from duplicate.web.deps import engine_of
from duplicate.web.render import page
from engine.combo import ComboType

router = APIRouter(include_in_schema=False)

#: The page's words the script shows (catalogue keys, with their placeholders kept as
#: ``{name}`` for the script to fill), given to it in the page's language.
SCRIPT_WORDS: dict[str, tuple[str, ...]] = {
    "capture.page.turn": ("seat",), "capture.page.lead": ("seat",),
    "capture.page.to_beat": ("seat", "play"), "capture.page.offline": ("count",),
    "capture.page.sent": (), "capture.page.over": ("result",),
    "capture.page.cards_left": ("count",), "capture.page.passed": (),
    "capture.page.small_joker": (), "capture.page.big_joker": (),
    "capture.page.state.not_started": (), "capture.page.state.playing": (),
    "capture.page.state.ended": (), "capture.page.sending": (),
    "capture.page.board": ("board",), "capture.page.failed": (),
    "seat.N": (), "seat.E": (), "seat.S": (), "seat.W": (),
    **{f"combo.{t.record_name}": () for t in ComboType},
}


def script_words(lang: str) -> dict[str, str]:
    """:data:`SCRIPT_WORDS` in ``lang``."""
    t = translator(lang)
    return {key: t(key, **{n: "{" + n + "}" for n in names})
            for key, names in SCRIPT_WORDS.items()}


@router.get("/r/{token}")
def recorder_page(request: Request, token: str) -> Response:
    """The recorder's page of the token's table and room (the hall's refusals of a token as
    the error page)."""
    table = capture.table_capture(engine_of(request), token)
    lang = language_of(request)
    return page(
        request, "capture_record.html", table=table, event=table.event,
        script={"api": f"/api/capture/{quote(token, safe='')}", "lang": lang,
                "store": f"capture:{table.event}:{table.round_no}:{table.table}:{table.room}",
                "seats": table.seats.to_dict(), "words": script_words(lang)},
    )
