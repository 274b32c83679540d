/* North's page: every 10 s ask the table's API whether a board changed (West sent a report,
   the director ruled) and reload then, unless North is typing a dispute note. The page
   works without it (reload by hand). */
(function () {
  "use strict";
  var data = document.getElementById("north-state");
  if (!data || !window.fetch) { return; }
  var state = JSON.parse(data.textContent);
  var note = document.getElementById("poll-note");
  if (note) { note.hidden = false; }
  function signature(view) {
    return view.boards.map(function (b) {
      return b.board + ":" + b.state + ":" + (b.report ? b.report.id : "");
    }).join(",");
  }
  function busy() {
    var el = document.activeElement;
    if (el && el.tagName === "TEXTAREA") { return true; }
    var open = document.querySelectorAll("details[open] textarea");
    for (var i = 0; i < open.length; i++) { if (open[i].value) { return true; } }
    return false;
  }
  function poll() {
    fetch(state.api, { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (view) {
        if (view && signature(view) !== state.sig && !busy()) {
          window.location.replace(window.location.pathname);
        }
      })
      .catch(function () { /* offline for a moment: try again next time */ });
  }
  setInterval(poll, 10000);
})();
