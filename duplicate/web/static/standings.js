/* The live standings: every 10 s ask /api/events/{event}/standings with If-None-Match (the
   results' version as ETag); 304 costs nothing, a 200 redraws the table, the round the
   standings are after and the provisional mark (the round not yet published, 公示; or
   published and corrected since, with how many results changed). */
(function () {
  "use strict";
  var table = document.getElementById("standings");
  if (!table || !window.fetch) { return; }
  var body = document.getElementById("standings-rows");
  var words = JSON.parse(document.getElementById("decided-words").textContent);
  var columns = JSON.parse(document.getElementById("standings-columns").textContent);
  var etag = null;
  var note = document.getElementById("live-note");
  if (note) { note.hidden = false; }
  var vp = table.getAttribute("data-vp") === "true";
  /* points as the page drew them (duplicate.i18n.game.points_text): victory points with
     two decimals (7.20, 10.00), match points as they are (2, 12.5) */
  function fmt(x) {
    if (vp) { var t = x.toFixed(2); return t === "-0.00" ? "0.00" : t; }
    return String(Math.round(x * 100) / 100);
  }
  function signed(x) { return x > 0 ? "+" + x : String(x); }
  function cell(tr, text, cls) {
    var td = document.createElement("td");
    td.textContent = text;
    if (cls) { td.className = cls; }
    tr.appendChild(td);
  }
  function draw(data) {
    var rows = document.createDocumentFragment();
    data.rows.forEach(function (r) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-team", r.team);
      cell(tr, String(r.rank), "num");
      cell(tr, r.team);
      if (data.withdrawn && Object.prototype.hasOwnProperty.call(data.withdrawn, String(r.team))) {
        var gone = document.createElement("span");  /* 退赛, as the page drew it */
        gone.className = "state withdrawn";
        gone.textContent = table.getAttribute("data-withdrawn");
        tr.lastChild.appendChild(gone);
      }
      columns.forEach(function (c) {  /* the page's columns: [field, class] */
        var key = c[0], v = r[key], text;
        if (key === "decided_by") { text = v ? (words[v] || v) : ""; }
        else if (key === "swing") { text = signed(v); }
        else if (key === "points" || key === "progressive" || key === "opponents_points") { text = fmt(v); }
        else { text = String(v); }
        cell(tr, text, c[1]);
      });
      rows.appendChild(tr);
    });
    body.replaceChildren(rows);
    document.getElementById("through").textContent = data.through
      ? table.getAttribute("data-through").replace("{round}", data.through)
      : table.getAttribute("data-none");
    var mark = document.getElementById("provisional-mark");
    mark.replaceChildren();
    if (data.through) {
      var span = document.createElement("span");
      var fixed = !data.provisional && data.corrections && data.corrections.length;
      span.className = data.provisional ? "provisional" : fixed ? "published corrected" : "published";
      span.textContent = fixed
        ? table.getAttribute(data.corrections.length === 1 ? "data-corrected-one" : "data-corrected-other")
            .replace(/\d+/, String(data.corrections.length))  /* the form's one number */
        : table.getAttribute(data.provisional ? "data-provisional" : "data-published");
      if (fixed) { span.setAttribute("data-corrected", String(data.corrections.length)); }
      if (data.provisional) {
        span.setAttribute("data-provisional", "1");
        span.title = table.getAttribute("data-provisional-help");
      }
      mark.appendChild(span);
    }
    table.setAttribute("data-version", data.version);
  }
  function poll() {
    var headers = { "Accept": "application/json" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(table.getAttribute("data-api"), { headers: headers, cache: "no-cache" })
      .then(function (r) {
        if (r.status !== 200) { return null; }
        etag = r.headers.get("ETag");
        return r.json();
      })
      .then(function (data) { if (data) { draw(data); } })
      .catch(function () { /* a dropped connection: the next poll tries again */ });
  }
  poll();
  setInterval(poll, 10000);
})();
