/* The live page of a captured board: the movie opens at its last step (#end), and the
 * page asks every few seconds whether the board changed (its "version": a new action, a
 * room ended, a correction, the analysis stored); when it did, the page is drawn again,
 * at its new last step when the reader was at the last step.
 * Without JS the page is what the server drew when it was loaded. */
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box) { return; }
  if (!window.location.hash && window.history && window.history.replaceState) {
    window.history.replaceState(null, "", "#end");
  }
  var poll = box.getAttribute("data-poll");
  var version = box.getAttribute("data-version");
  var seconds = parseInt(box.getAttribute("data-seconds") || "5", 10);
  if (!poll || !window.fetch) { return; }
  var movie = document.getElementById("movie");
  var endStep = null;  // the movie's last step, as drawn at #end when the page opened
  function step() { return movie ? movie.getAttribute("data-step") : null; }
  window.addEventListener("load", function () {  // movie.js has drawn the page by now
    if (window.location.hash === "#end") { endStep = step(); }
  });
  function ask() {
    window.fetch(poll, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) {
        if (d && d.version && d.version !== version) {
          // a reader at the last step stays at the last step of the new page
          if (endStep !== null && step() === endStep && window.history.replaceState) {
            window.history.replaceState(null, "", "#end");
          }
          window.location.reload();
          return;
        }
        window.setTimeout(ask, seconds * 1000);
      })
      .catch(function () { window.setTimeout(ask, seconds * 1000); });
  }
  window.setTimeout(ask, seconds * 1000);
}());
