/* The board "movie" (duplicate/review/movie.py makes its data).
 *
 * The page carries the deal as JSON in <script id="movie-data" type="application/json">;
 * this script reads it, removes it from the DOM, and draws the position after the current
 * step only: nothing after the current step is ever in the DOM. Rooms step together by
 * decision point (action index). Controls: buttons, ←/→ (action), Shift+←/→ or ↑/↓
 * (trick: the next lead in either room), Home/End, a horizontal swipe, a tap on a value
 * graph (the step under the tap); keys act only while the movie has the focus (it is
 * focusable) and those with Alt, Ctrl or Meta are left to the browser; deep links
 * #open=37 (after action 37), #diverge, #end; a link marked data-keep-step (the language
 * switch) follows the step. On a phone the hands are folded by default (one button shows
 * them) so that both rooms' current tricks and whose turn it is fit one screen.
 * For a screen reader: each hand is a group named by its seat and card count, a wild
 * heart says what it stands for, the live region says each step's plays and marks.
 * Every word and every separator (the colon, a list's comma, the brackets) comes from the
 * page's language in D.words ("开室：三带二6", "Open room: full house 6"): none is typed here.
 */
(function () {
  "use strict";
  var src = document.getElementById("movie-data");
  var root = document.getElementById("movie");
  if (!src || !root) { return; }
  var D = JSON.parse(src.textContent);
  src.parentNode.removeChild(src);
  var W = D.words;
  var max = 0;
  D.rooms.forEach(function (r) { max = Math.max(max, r.moves.length); });
  var k = 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  function card(f) {
    var wild = / wild( |$)/.test(f.c);
    // a wild heart is read as what it stands for, not only shown by its colour and title
    var c = el("span", f.c, wild ? null : f.t);
    c.title = f.h;
    c.setAttribute("data-k", f.k);
    if (wild) {
      var face = el("span", "", f.t);
      face.setAttribute("aria-hidden", "true");
      c.appendChild(face);
    }
    if (f.a) {
      var s = el("sup", "as", "=" + f.a);
      if (wild) { s.setAttribute("aria-hidden", "true"); }
      c.appendChild(s);
    }
    if (wild) { c.appendChild(el("span", "vh", f.h)); }
    return c;
  }
  function cards(list) {
    var box = el("span", "cards");
    if (!list || !list.length) { box.appendChild(el("span", "none", "—")); }
    (list || []).forEach(function (f) { box.appendChild(card(f)); });
    return box;
  }
  function play(p) {
    var box = el("span", "play");
    if (!p) { box.appendChild(el("span", "none", W.finished)); return box; }
    box.appendChild(el("span", "what", p.d));
    if (p.f) { box.appendChild(document.createTextNode(" ")); box.appendChild(cards(p.f)); }
    return box;
  }

  // the position of a room after its first n actions, computed from the JSON
  function position(room, n) {
    var hands = D.hands.map(function (h) { return h.slice(); });
    var counts = [27, 27, 27, 27], bao = [false, false, false, false];
    var lead = 0, jf = false;
    n = Math.min(n, room.moves.length);
    for (var i = 0; i < n; i++) {
      var m = room.moves[i];
      if (m.lead) { lead = i; jf = !!m.jf; }
      if (m.f) {
        m.f.forEach(function (f) {
          var h = hands[m.s];
          for (var j = 0; j < h.length; j++) { if (h[j].k === f.k) { h.splice(j, 1); break; } }
        });
      }
      counts[m.s] = m.n;
      if (m.bao) { bao[m.s] = true; }
    }
    var trick = n ? room.moves.slice(lead, n) : [];
    var turn = n < room.moves.length ? room.moves[n].s : -1;
    return { hands: hands, counts: counts, bao: bao, trick: trick, turn: turn, jf: jf && n > lead,
             done: n >= room.moves.length };
  }

  // the movie takes the keys only while it has the focus (a click in it gives it)
  root.tabIndex = 0;
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", W.region);
  var narrow = window.matchMedia && window.matchMedia("(max-width: 899px)").matches;
  var controls = el("div", "controls");
  // each button says what it does in the page's language (its glyph is decoration)
  function button(id, glyph, name, fn) {
    var b = el("button", "btn");
    b.type = "button"; b.id = id; b.onclick = fn;
    var g = el("span", "glyph", glyph);
    g.setAttribute("aria-hidden", "true");
    b.appendChild(g);
    b.setAttribute("aria-label", name);
    b.title = name;
    controls.appendChild(b);
    return b;
  }
  var label = el("span", "stepno");
  label.id = "stepno";
  button("m-start", "⇤", W.start, function () { go(0); });
  button("m-prev-trick", "«", W.prev_trick, function () { go(trickStart(-1)); });
  button("m-prev", "◀", W.prev_step, function () { go(k - 1); });
  controls.appendChild(label);
  button("m-next", "▶", W.next_step, function () { go(k + 1); });
  button("m-next-trick", "»", W.next_trick, function () { go(trickStart(1)); });
  button("m-end", "⇥", W.end, function () { go(max); });
  if (D.divergence) {
    var dv = button("m-diverge", "", W.diverge, function () {
      go(D.divergence.index + 1);
      // both choices (and their values) into view, below the sticky controls
      if (divBox.scrollIntoView) { divBox.scrollIntoView({ block: "start" }); }
    });
    dv.appendChild(document.createTextNode(W.diverge));
  }
  // the hands: folded on a phone (both rooms' tricks then fit one screen), one tap away
  var hb = button("m-hands", "", W.hands, function () { showHands(root.classList.contains("nohands")); });
  hb.appendChild(document.createTextNode(W.hands));
  function showHands(on) {
    root.classList.toggle("nohands", !on);
    hb.setAttribute("aria-pressed", on ? "true" : "false");
  }
  showHands(!narrow);
  root.appendChild(controls);
  // what a screen reader hears after each step: the step and the play just made in each room
  var live = el("p", "live");
  live.id = "movie-live";
  live.setAttribute("aria-live", "polite");
  root.appendChild(live);
  var roomsBox = el("div", "rooms");
  root.appendChild(roomsBox);
  var divBox = el("div", "divergence");
  divBox.id = "divergence";
  root.appendChild(divBox);
  var sumBox = el("div", "summary");
  sumBox.id = "summary";
  root.appendChild(sumBox);

  // steps at which a trick starts in any room (a lead): stepping by trick stops at the
  // next (previous) lead of either room, so the closed room's tricks are not skipped
  function isLead(i) {
    return D.rooms.some(function (r) { return r.moves[i] && r.moves[i].lead; });
  }
  function trickStart(dir) {
    var i;
    if (dir > 0) {
      for (i = k + 1; i < max; i++) { if (isLead(i)) { return i; } }
      return max;
    }
    for (i = k - 1; i > 0; i--) { if (isLead(i)) { return i; } }
    return 0;
  }

  var SPOTS = ["seat-N", "seat-E", "seat-S", "seat-W"];
  function drawRoom(room) {
    var p = position(room, k);
    var sec = el("section", "room");
    sec.setAttribute("data-room", room.key);
    sec.appendChild(el("h3", "", room.label));
    var felt = el("div", "felt");
    for (var s = 0; s < 4; s++) {
      var h = el("div", "hand " + SPOTS[s] + (p.turn === s ? " turn" : ""));
      h.setAttribute("data-seat", String(s));
      // one labelled group a seat: "东家手牌 25张" (the count said, not only shown)
      h.setAttribute("role", "group");
      h.setAttribute("aria-label", W.hand_group.replace("{seat}", D.seats[s]).replace("{n}", String(p.counts[s])));
      var head = el("div", "handhead");
      head.appendChild(el("span", "seatname", D.seats[s]));
      head.appendChild(el("span", "player", room.players[s]));
      var cnt = el("span", "count", String(p.counts[s]));
      cnt.title = W.left;
      cnt.setAttribute("aria-hidden", "true");  // the group's name says it
      head.appendChild(cnt);
      if (p.bao[s] && p.counts[s] > 0) { head.appendChild(el("span", "bao", W.baopai)); }
      if (p.turn === s) { head.appendChild(el("span", "toact", W.to_act)); }
      h.appendChild(head);
      h.appendChild(cards(p.hands[s]));
      felt.appendChild(h);
    }
    var centre = el("div", "centre");
    centre.appendChild(el("div", "level", D.level));
    var ol = el("ol", "trick");
    var a = room.anl && k > 0 ? room.anl[k - 1] : null;
    p.trick.forEach(function (m, i) {
      var li = el("li", m.f ? "act" : "act pass");
      li.setAttribute("data-seat", String(m.s));
      li.appendChild(el("span", "seatname", D.seats[m.s]));
      if (m.f) { li.appendChild(cards(m.f)); li.title = m.d; } else { li.appendChild(el("span", "password", W.pass)); }
      // the mark of the action just made sits on that action, by the seat that played it
      if (a && a.m && i === p.trick.length - 1) {
        var mk = el("b", "mark", a.m);
        mk.setAttribute("data-seat", String(a.s));
        li.appendChild(mk);
      }
      ol.appendChild(li);
    });
    if (p.jf) { centre.appendChild(el("div", "jf", W.jiefeng)); }
    centre.appendChild(ol);
    felt.appendChild(centre);
    sec.appendChild(felt);
    if (a) { sec.appendChild(drawAnalysis(a)); }
    if (p.done) {
      var end = el("p", "end", room.end.result + " · " + room.end.finish);
      sec.appendChild(end);
      if (room.end.ruled) { sec.appendChild(el("p", "ruled", room.end.ruled)); }
    }
    return sec;
  }

  // the analysis of the action just made: the value after it and, when it lost value,
  // the mark, the best plays and the line that follows (never a later action of the room)
  function drawAnalysis(a) {
    var box = el("div", "anl");
    if (a.m) {
      // who played, the mark, what it cost and what was better, in one sentence
      var said = el("p", "anlmark", a.t);
      said.setAttribute("data-seat", String(a.s));
      box.appendChild(said);
    }
    var head = el("p", "anlvalue", W.value + W.colon + a.v);
    if (a.m) { head.appendChild(document.createTextNode(W.open + W.from_to + W.colon + a.b + W.close)); }
    box.appendChild(head);
    if (a.m && a.best && a.best.length) {
      box.appendChild(el("p", "anlbest", W.best + W.colon + a.best.map(function (b) { return b.d + " " + b.v; }).join(W.said_sep)));
    }
    if (a.m && a.line && a.line.length) {
      box.appendChild(el("p", "anlline", W.line + W.colon + a.line.join(W.list_sep)));
    }
    return box;
  }

  function drawDivergence() {
    divBox.textContent = "";
    var d = D.divergence;
    // shown once the diverging action is made (step index + 1): never ahead of the step
    if (!d || k <= d.index) { divBox.hidden = true; return; }
    divBox.hidden = false;
    divBox.appendChild(el("h3", "", W.diverge + " · " + W.step_at.replace("{k}", String(d.index + 1))));
    divBox.appendChild(el("p", "", D.seats[d.turn] + " — " + d.situation));
    var ul = el("ul", "choices");
    D.rooms.forEach(function (r, i) {
      var li = el("li", "");
      li.appendChild(el("b", "", r.label + W.colon));
      li.appendChild(play(d.choices[i]));
      ul.appendChild(li);
    });
    divBox.appendChild(ul);
    var alt = d.alternatives;
    if (alt) {
      divBox.appendChild(el("p", "", (alt.can_pass ? W.options_pass : W.options).replace("{n}", String(alt.playable))));
      // each room's own choice first, named by its room (never by colour alone)
      var cl = el("ul", "alternatives chosenlist");
      alt.chosen.forEach(function (a, i) {
        var li = el("li", "chosen");
        li.appendChild(el("b", "", a.room + " · " + W.chosen + W.colon));
        li.appendChild(play(a));
        if (d.values && d.values[i]) { li.appendChild(el("span", "anlvalue", " " + W.value + W.colon + d.values[i])); }
        cl.appendChild(li);
      });
      divBox.appendChild(cl);
      alt.groups.forEach(function (g) {
        divBox.appendChild(el("h4", "altgroup", g.name + W.open + g.count + W.close));
        var al = el("ul", "alternatives");
        g.plays.forEach(function (a) {
          var li = el("li", "");
          li.appendChild(play(a));
          al.appendChild(li);
        });
        if (g.more) { al.appendChild(el("li", "more", W.more + " " + g.more)); }
        divBox.appendChild(al);
      });
    }
  }

  function drawSummary() {
    sumBox.textContent = "";
    if (k < max) { sumBox.hidden = true; return; }
    sumBox.hidden = false;
    sumBox.appendChild(el("h3", "", W.summary));
    var fields = ["player", "place", "plays", "passes", "tricks", "leads", "bombs", "jf"];
    D.summary.forEach(function (row) {
      var box = el("div", "seatsum");
      box.tabIndex = 0;  // it may scroll sideways: reachable by keyboard
      box.appendChild(el("h4", "", row.seat));
      var tbl = el("table", "figures"), tb = el("tbody");
      var hr = el("tr");
      hr.appendChild(el("th"));
      D.rooms.forEach(function (r) { hr.appendChild(el("th", "", r.label)); });
      tb.appendChild(hr);
      fields.concat(["wilds", "left"]).forEach(function (f) {
        var tr = el("tr");
        tr.appendChild(el("th", "", W[f]));
        row.rooms.forEach(function (r) {
          var td = el("td");
          if (f === "left") { td.appendChild(cards(r.left)); }
          else if (f === "wilds") { td.textContent = r.wilds.length ? r.wilds.join(W.said_sep) : "—"; }
          else { td.textContent = String(r[f]); }
          tr.appendChild(td);
        });
        tb.appendChild(tr);
      });
      tbl.appendChild(tb);
      box.appendChild(tbl);
      sumBox.appendChild(box);
    });
  }

  function draw() {
    roomsBox.textContent = "";
    D.rooms.forEach(function (r) { roomsBox.appendChild(drawRoom(r)); });
    label.textContent = W.step_of.replace("{k}", String(k)).replace("{n}", String(max));
    root.setAttribute("data-step", String(k));
    live.textContent = said();
    drawDivergence();
    drawSummary();
  }
  // the step and, in each room, who made which play at it ("Step 5: Open room: East single 9")
  function said() {
    var parts = [W.step_at.replace("{k}", String(k))];
    if (k > 0) {
      D.rooms.forEach(function (r) {
        var m = r.moves[k - 1];
        if (m) { parts.push(r.label + " " + D.seats[m.s] + " " + m.d); }
        var a = r.anl ? r.anl[k - 1] : null;  // a mark is announced with its words
        if (a && a.m) { parts.push(r.label + " " + a.t); }
      });
    }
    return parts.join(W.said_sep);
  }
  function go(to, keepHash) {
    k = Math.max(0, Math.min(max, to));
    draw();
    var hash = "#" + D.rooms[0].key + "=" + k;
    if (!keepHash && history.replaceState) {
      history.replaceState(null, "", hash);
    }
    // the language switch opens the other language at the same step
    Array.prototype.forEach.call(document.querySelectorAll("a[data-keep-step]"), function (a) {
      a.setAttribute("href", a.getAttribute("href").split("#")[0] + hash);
    });
  }
  function fromHash() {
    var h = decodeURIComponent(location.hash.replace(/^#/, ""));
    if (h === "diverge" && D.divergence) { go(D.divergence.index + 1, true); return; }
    if (h === "end") { go(max, true); return; }
    var m = /^([^=]+)=(\d+)$/.exec(h);
    if (m) { go(parseInt(m[2], 10), true); return; }
    go(0, true);
  }
  root.addEventListener("keydown", function (e) {
    if (e.target && /input|textarea|select/i.test(e.target.tagName)) { return; }
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }  // the browser's own (back, tabs...)
    if (e.key === "ArrowRight") { go(e.shiftKey ? trickStart(1) : k + 1); }
    else if (e.key === "ArrowLeft") { go(e.shiftKey ? trickStart(-1) : k - 1); }
    else if (e.key === "ArrowDown") { go(trickStart(1)); }
    else if (e.key === "ArrowUp") { go(trickStart(-1)); }
    else if (e.key === "Home") { go(0); }
    else if (e.key === "End") { go(max); }
    else { return; }
    e.preventDefault();
  });
  // a horizontal swipe on the table steps (left: on, right: back); the page never goes
  // back (touch-action: pan-y and overscroll-behavior-x in the stylesheet keep the browser's
  // own horizontal gestures off the movie), and a mostly vertical move scrolls, not steps
  var x0 = null, y0 = null;
  roomsBox.addEventListener("touchstart", function (e) {
    x0 = e.changedTouches[0].clientX; y0 = e.changedTouches[0].clientY;
  }, { passive: true });
  roomsBox.addEventListener("touchend", function (e) {
    if (x0 === null) { return; }
    var dx = e.changedTouches[0].clientX - x0, dy = e.changedTouches[0].clientY - y0;
    x0 = null;
    if (Math.abs(dx) > 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) { go(dx < 0 ? k + 1 : k - 1); }
  }, { passive: true });
  // a tap on a value graph moves the movie to the step under it (the graph's x axis is
  // the count of actions: data-plies over the plot from data-x0 to data-x1 of its viewBox)
  Array.prototype.forEach.call(document.querySelectorAll("figure.valuegraph svg[data-plies]"), function (svg) {
    svg.addEventListener("click", function (e) {
      var box = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
      var x = (e.clientX - box.left) * vb.width / box.width;
      var x0 = +svg.getAttribute("data-x0"), x1 = +svg.getAttribute("data-x1");
      go(Math.round((x - x0) / (x1 - x0) * +svg.getAttribute("data-plies")));
      if (root.scrollIntoView) { root.scrollIntoView({ block: "start" }); }
      root.focus({ preventScroll: true });
    });
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
