/* West's page: the finishing-order picker. Tap the seats in the order they went out (1st,
   2nd, 3rd); the page asks the server (GET /api/table/{token}/preview) what that order
   implies and shows it before sending. No rule is known here: two taps are sent first,
   and when the server says the order needs a third seat, a third tap is awaited. The
   form's selects (which work without JS) are filled from the taps, so the post is the same. */
(function () {
  "use strict";
  var form = document.getElementById("report-form");
  if (!form || !window.fetch) { return; }
  document.documentElement.classList.add("js");
  var picker = document.getElementById("picker");
  var tools = document.getElementById("picker-tools");
  var help = document.getElementById("picker-help");
  var orders = document.getElementById("orders");
  var preview = document.getElementById("preview");
  var check = document.getElementById("check");
  var send = document.getElementById("send");
  var unfinished = document.getElementById("unfinished");
  var selects = ["first", "second", "third"].map(function (f) { return document.getElementById("sel-" + f); });
  var buttons = Array.prototype.slice.call(picker.querySelectorAll("button[data-seat]"));
  var placeNames = selects.map(function (s) { return s.parentNode.firstChild.textContent.trim(); });
  var order = [];
  var asked = 0;

  picker.hidden = false; tools.hidden = false; help.hidden = false;
  orders.style.display = "none"; check.style.display = "none";
  var thirdHelp = form.querySelector(".js-hide-note");
  if (thirdHelp) { thirdHelp.style.display = "none"; }

  function fill() {
    selects.forEach(function (s, i) { s.value = order[i] || ""; });
    buttons.forEach(function (b) {
      var i = order.indexOf(b.getAttribute("data-seat"));
      b.classList.toggle("picked", i >= 0);
      b.querySelector(".place").textContent = i >= 0 ? placeNames[i] : "";
      b.setAttribute("aria-pressed", i >= 0 ? "true" : "false");
    });
  }
  function say(text, bad) {
    preview.textContent = text;
    preview.classList.toggle("bad", !!bad);
  }
  function words(p) {
    var ns = form.getAttribute("data-side-ns"), ew = form.getAttribute("data-side-ew");
    var winner = p.ns_result > 0 ? ns : ew, loser = p.ns_result > 0 ? ew : ns;
    var template = form.getAttribute(p.double_down ? "data-dd" : "data-up");
    return template.replace("{side}", winner).replace("{levels}", String(p.levels))
      .replace("{loser}", loser);
  }
  function ask() {
    var finish = order.join(" ");
    var mine = ++asked;
    if (order.length < 2) { say(""); return; }
    fetch(form.getAttribute("data-api") + "?finish=" + encodeURIComponent(finish),
          { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (res) {
        if (mine !== asked) { return; }
        if (res.ok) {
          say(form.getAttribute("data-implies").replace("{result}", words(res.body)));
        } else if (order.length === 2) {
          say(form.getAttribute("data-need-third"));
        } else {
          say((res.body && res.body.message) || form.getAttribute("data-bad"), true);
        }
      })
      .catch(function () { if (mine === asked) { say(""); } });
  }
  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      var seat = b.getAttribute("data-seat");
      var i = order.indexOf(seat);
      if (i >= 0) { order = order.slice(0, i); }
      else if (order.length < 3) { order.push(seat); }
      if (unfinished) { unfinished.checked = false; }
      fill(); ask();
    });
  });
  document.getElementById("picker-clear").addEventListener("click", function () {
    order = []; fill(); say("");
  });
  /* start from what the page already holds (a refused post shown again) */
  selects.forEach(function (s) { if (s.value) { order.push(s.value); } });
  fill(); if (order.length >= 2) { ask(); }

  function boardLabel() {
    var b = form.querySelector("input[name=board]:checked");
    send.textContent = b ? form.getAttribute("data-send").replace("{board}", b.value) : send.textContent;
  }
  form.addEventListener("change", function (e) { if (e.target.name === "board") { boardLabel(); } });
  boardLabel();

  var record = document.getElementById("record");
  form.addEventListener("submit", function (e) {
    if (record && record.files && record.files[0] &&
        record.files[0].size > parseInt(record.getAttribute("data-max"), 10)) {
      e.preventDefault(); say(record.getAttribute("data-too-big"), true); return;
    }
    send.disabled = true;   /* a double tap sends once; the server stores once anyway */
    setTimeout(function () { send.disabled = false; }, 4000);
  });
})();
