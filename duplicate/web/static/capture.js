/* The recorder's page (docs/CAPTURE.md): speaks the device protocol to the hall. Every
   entry is numbered and kept in localStorage until the hall acknowledges it, so a phone
   that drops the network keeps its entries, says it is offline and sends them, in order,
   when it is back (a resent entry is stored once). No rule is checked here: the hall's
   engine accepts or refuses each entry, and its refusal is shown as it says it. */
(function () {
  "use strict";
  var node = document.getElementById("capture-state");
  if (!node || !window.fetch) { return; }
  var cfg = JSON.parse(node.textContent);
  var W = cfg.words;
  var board = null, state = null, sel = { seat: null, idx: [] }, sending = false, timer = null;
  var $ = function (id) { return document.getElementById(id); };

  function say(key, values) {
    var s = W[key] || key;
    Object.keys(values || {}).forEach(function (k) { s = s.split("{" + k + "}").join(values[k]); });
    return s;
  }
  function seatWord(s) { return W["seat." + s] || s; }
  function cardText(c) {
    if (c === "SB") { return W["capture.page.small_joker"]; }
    if (c === "HR") { return W["capture.page.big_joker"]; }
    var suit = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" }[c[0]] || c[0];
    var rank = c.slice(1) === "T" ? "10" : c.slice(1);
    return suit + rank;
  }
  function storeKey() { return cfg.store + ":" + board; }
  function queue() {
    try { return JSON.parse(localStorage.getItem(storeKey()) || "[]"); } catch (e) { return []; }
  }
  function keep(q) { localStorage.setItem(storeKey(), JSON.stringify(q)); }

  function api(method, path, body) {
    return fetch(cfg.api + path, {
      method: method, cache: "no-store",
      headers: { "Content-Type": "application/json", "Accept": "application/json",
                 "Accept-Language": cfg.lang },
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (d) { return { ok: r.ok, data: d }; },
        function () { return { ok: false, data: { message: W["capture.page.failed"] } }; });
    });
  }

  function net(text) { var n = $("net"); n.textContent = text || ""; n.hidden = !text; }
  function said(text) { var n = $("said"); n.textContent = text || ""; n.hidden = !text; }

  /* the hands as the page shows them: the hall's, less the entries not yet acknowledged */
  function shown() {
    var hands = {}, q = queue();
    Object.keys(state.hands).forEach(function (s) { hands[s] = state.hands[s].slice(); });
    q.forEach(function (e) {
      e.cards.forEach(function (c) {
        var i = hands[e.seat].indexOf(c);
        if (i >= 0) { hands[e.seat].splice(i, 1); }
      });
    });
    return hands;
  }

  function render() {
    if (!state) { return; }
    var q = queue(), hands = shown(), over = state.state === "ended";
    $("deal-board").textContent = say("capture.page.board", { board: state.board });
    var waiting = q.length > 0;
    if (over) {
      $("turn").textContent = say("capture.page.over", { result: state.result });
    } else if (waiting) {
      $("turn").textContent = "";
    } else {
      $("turn").textContent = say(state.to_beat ? "capture.page.turn" : "capture.page.lead",
                                  { seat: seatWord(state.turn) });
    }
    $("beat").textContent = (!over && !waiting && state.to_beat) ? say("capture.page.to_beat", {
      seat: seatWord(state.to_beat.seat), play: state.to_beat.cards.map(cardText).join(" ") }) : "";
    Array.prototype.forEach.call(document.querySelectorAll(".seat"), function (div) {
      var s = div.getAttribute("data-seat");
      div.classList.toggle("acting", !over && !waiting && state.turn === s);
      div.querySelector(".left").textContent = say("capture.page.cards_left",
                                                   { count: hands[s].length });
      var box = div.querySelector(".cards");
      box.textContent = "";
      hands[s].forEach(function (c, i) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "card" + (c[0] === "H" || c[0] === "D" || c === "HR" ? " red" : "");
        b.setAttribute("data-card", c);
        b.setAttribute("data-seat", s);
        b.setAttribute("aria-pressed", sel.seat === s && sel.idx.indexOf(i) >= 0 ? "true" : "false");
        b.textContent = cardText(c);
        b.disabled = over;
        b.addEventListener("click", function () { tap(s, i); });
        box.appendChild(b);
      });
      div.querySelector(".play").disabled = over || sel.seat !== s || !sel.idx.length;
      div.querySelector(".pass").disabled = over;
    });
    $("undo").disabled = over || (state.last === 0 && !q.length);
    var hist = $("history");
    hist.textContent = "";
    var all = state.actions.map(function (a) { return { a: a, wait: false }; })
      .concat(q.map(function (e) { return { a: e, wait: true }; }));
    all.slice(-12).reverse().forEach(function (x) {
      var li = document.createElement("li");
      li.value = x.a.seq;
      li.textContent = seatWord(x.a.seat) + " " +
        (x.a.cards.length ? x.a.cards.map(cardText).join(" ") : W["capture.page.passed"]) +
        (x.wait ? " \u2026" : "");
      if (x.wait) { li.className = "waiting"; }
      hist.appendChild(li);
    });
  }

  function tap(seat, i) {
    if (sel.seat !== seat) { sel = { seat: seat, idx: [] }; }
    var at = sel.idx.indexOf(i);
    if (at >= 0) { sel.idx.splice(at, 1); } else { sel.idx.push(i); }
    render();
  }

  /* a play: the hall's engine says under which readings it can be made; when wild
     hearts leave several, the recorder chooses one */
  function play(seat, cards) {
    if (queue().length) { enter(seat, cards, null); return; }
    api("POST", "/boards/" + board + "/readings", { seat: seat, cards: cards }).then(function (r) {
      var rs = r.ok ? r.data.readings : [];
      if (rs.length > 1) { ask(seat, cards, rs); } else { enter(seat, cards, rs[0] || null); }
    }, function () { enter(seat, cards, null); });
  }

  function ask(seat, cards, rs) {
    var box = $("choose"), list = $("choices");
    list.textContent = "";
    rs.forEach(function (x) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "reading";
      b.setAttribute("data-type", x.type);
      b.setAttribute("data-rank", x.rank);
      b.textContent = (W["combo." + x.type] || x.type) + " " + (x.rank === "T" ? "10" : x.rank);
      b.addEventListener("click", function () { box.hidden = true; enter(seat, cards, x); });
      list.appendChild(b);
    });
    box.hidden = false;
  }

  function enter(seat, cards, reading) {
    var q = queue();
    q.push({ seq: state.last + q.length + 1, seat: seat, cards: cards,
             type: reading ? reading.type : null, rank: reading ? reading.rank : null });
    keep(q);
    sel = { seat: null, idx: [] };
    said("");
    render();
    flush();
  }

  function reload() {
    return api("GET", "/boards/" + board).then(function (r) {
      if (r.ok) { state = r.data; }
      render();
    });
  }

  function offline() {
    net(say("capture.page.offline", { count: queue().length }));
    clearTimeout(timer);
    timer = setTimeout(flush, 3000);
  }

  /* an acknowledged entry moves from the queue into the page's copy of the hall's state
     at once (its cards out of the hand, its number the last), so that the next entry is
     numbered right even before the state is read again */
  function absorb(e, ack) {
    if (state.last < e.seq) {
      e.cards.forEach(function (c) {
        var i = state.hands[e.seat].indexOf(c);
        if (i >= 0) { state.hands[e.seat].splice(i, 1); }
      });
      state.actions.push({ seq: e.seq, seat: e.seat, cards: e.cards });
    }
    state.last = Math.max(state.last, ack.last);
    state.turn = ack.turn;
    if (ack.over) { state.state = "ended"; }
  }

  function flush() {
    var q = queue();
    if (sending || !q.length || board === null) { return; }
    sending = true;
    net(W["capture.page.sending"]);
    var e = q[0];
    api("POST", "/boards/" + board + "/actions", e).then(function (r) {
      sending = false;
      var now = queue();
      if (r.ok) {
        if (now.length && now[0].seq === e.seq) { absorb(e, r.data); now.shift(); keep(now); }
      } else {
        said(r.data.message);
        keep([]);  /* the entries after a refused one cannot stand: read the hall again */
      }
      return reload().then(function () {
        if (queue().length) { flush(); } else { net(r.ok ? W["capture.page.sent"] : ""); }
      });
    }, function () { sending = false; offline(); });
  }

  function undo() {
    var q = queue();
    said("");
    if (q.length > (sending ? 1 : 0)) { q.pop(); keep(q); render(); return; }
    if (sending) { return; }
    api("POST", "/boards/" + board + "/undo", { seq: state.last }).then(function (r) {
      if (!r.ok) { said(r.data.message); }
      return reload();
    }, offline);
  }

  function open(b) {
    board = b;
    said("");
    api("POST", "/boards/" + b + "/start", {}).then(function (r) {
      if (!r.ok) { said(r.data.message); board = null; return; }
      state = r.data;
      sel = { seat: null, idx: [] };
      $("boards").hidden = true;
      $("deal").hidden = false;
      render();
      flush();
    }, offline);
  }

  function boards() {
    board = null;
    state = null;
    $("deal").hidden = true;
    $("boards").hidden = false;
    api("GET", "").then(function (r) {
      if (!r.ok) { return; }
      r.data.boards.forEach(function (b) {
        var btn = document.querySelector('.board-pick[data-board="' + b.board + '"]');
        if (btn) {
          btn.setAttribute("data-state", b.state);
          btn.querySelector(".state").textContent = W["capture.page.state." + b.state];
        }
      });
    }, function () {});
  }

  Array.prototype.forEach.call(document.querySelectorAll(".board-pick"), function (b) {
    b.addEventListener("click", function () { open(Number(b.getAttribute("data-board"))); });
  });
  Array.prototype.forEach.call(document.querySelectorAll(".seat .play"), function (b) {
    b.addEventListener("click", function () {
      var s = b.getAttribute("data-seat"), hands = shown();
      if (sel.seat !== s || !sel.idx.length) { return; }
      play(s, sel.idx.slice().sort(function (x, y) { return x - y; })
        .map(function (i) { return hands[s][i]; }));
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll(".seat .pass"), function (b) {
    b.addEventListener("click", function () { enter(b.getAttribute("data-seat"), [], null); });
  });
  $("undo").addEventListener("click", undo);
  $("cancel").addEventListener("click", function () { $("choose").hidden = true; });
  $("back").addEventListener("click", boards);
  window.addEventListener("online", flush);
}());
