/* The round clock of a hall page: counts down to data-ends (the server's time, corrected
   for this phone's clock by data-seconds at load), shows the 5-minute warning (no new
   board) and "time is up". Without JS the server's minutes left stay on the page. */
(function () {
  "use strict";
  var box = document.getElementById("hall-clock");
  if (!box) { return; }
  var phase = box.getAttribute("data-phase");
  if (phase !== "running" && phase !== "warning") { return; }
  if (box.hasAttribute("data-paused")) { return; }  /* the director paused it: it stands */
  var seconds = parseInt(box.getAttribute("data-seconds"), 10);
  var ends = Date.parse(box.getAttribute("data-ends"));
  var warning = Date.parse(box.getAttribute("data-warning"));
  if (isNaN(seconds) || isNaN(ends)) { return; }
  var warnBefore = isNaN(warning) ? 300 : Math.round((ends - warning) / 1000);
  var endAt = Date.now() + seconds * 1000;   /* the phone's clock may be off: trust the server */
  var text = box.querySelector(".hall-clock-text");
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var left = Math.max(0, Math.round((endAt - Date.now()) / 1000));
    var time = Math.floor(left / 60) + ":" + pad(left % 60);
    box.classList.remove("phase-running", "phase-warning");
    if (left <= 0) {
      box.classList.add("over");
      text.textContent = box.getAttribute("data-text-over");
      return false;
    }
    if (left <= warnBefore) {
      box.classList.add("warn");
      text.textContent = box.getAttribute("data-text-warning").replace("{time}", time);
    } else {
      text.textContent = box.getAttribute("data-text-running").replace("{time}", time);
    }
    return true;
  }
  if (tick()) {
    var timer = setInterval(function () { if (!tick()) { clearInterval(timer); } }, 1000);
  }
})();
