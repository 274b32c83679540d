/* The table's phone pages: a report is never lost to a dropped network. A form marked
   data-keep (West's report or request, North's confirmation or dispute) is posted with
   fetch; when the network is gone the post is kept on the phone (localStorage, one queue
   per table page), the page says it was not sent (#kept, in the page's language), and it is
   sent when the network is back (the "online" event, a retry every 5 s, the next load of
   the page), then the page shows the server's answer as a plain post would. The server
   takes a post sent again as the same report ("already received"): a post whose answer
   was lost on the way is not doubled. Without JS the forms post as they are. */
(function () {
  "use strict";
  if (!document.getElementById("kept") || !window.fetch || !window.FormData || !window.localStorage) { return; }
  var KEY = "guandan-kept:" + window.location.pathname;
  var sending = false;

  function load() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function save(queue) {
    if (queue.length) { window.localStorage.setItem(KEY, JSON.stringify(queue)); }
    else { window.localStorage.removeItem(KEY); }
  }
  function tell(key, item) {
    var note = document.getElementById("kept");
    if (!note) { return; }
    note.textContent = note.getAttribute(key).replace("{board}", item.board);
    note.hidden = false;
  }
  function boardOf(form) {
    var picked = form.querySelector("input[name=board]:checked");
    return picked ? picked.value : (form.getAttribute("data-keep") || "?");
  }
  /* the form's fields as [name, value] pairs, a chosen file as its text */
  function capture(form) {
    var fields = [], files = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") { fields.push([name, value]); }
      else if (value && value.name && value.size) { files.push([name, value]); }
    });
    return Promise.all(files.map(function (f) {
      return f[1].text().then(function (text) {
        return { field: f[0], name: f[1].name, type: f[1].type, text: text };
      });
    })).then(function (read) {
      return { action: form.action, fields: fields, files: read, board: boardOf(form) };
    });
  }
  function body(item) {
    var data = new FormData();
    item.fields.forEach(function (f) { data.append(f[0], f[1]); });
    item.files.forEach(function (f) {
      data.append(f.field, new Blob([f.text], { type: f.type || "text/plain" }), f.name);
    });
    return data;
  }
  /* the server's answer as a plain post shows it: its page, or a refusal's page */
  function show(response) {
    if (response.redirected) { window.location.assign(response.url); return; }
    return response.text().then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      if (doc.body && doc.body.children.length) {
        document.title = doc.title;
        document.body.replaceWith(document.adoptNode(doc.body));
      } else {
        var note = document.getElementById("kept");
        if (note) { note.textContent = html; note.hidden = false; }
      }
    });
  }
  /* send the first kept post; a network failure keeps it, any answer removes it */
  function flush() {
    var queue = load();
    if (sending || !queue.length) { return; }
    var item = queue[0];
    sending = true;
    if (item.tries) { tell("data-sending", item); }  /* a kept post going out again */
    item.tries = (item.tries || 0) + 1;
    save(queue);
    fetch(item.action, { method: "POST", body: body(item), credentials: "same-origin" })
      .then(function (response) {
        sending = false;
        if ([502, 503, 504].indexOf(response.status) >= 0) {  /* the server never had it */
          tell("data-offline", item); return;
        }
        save(load().slice(1));
        if (load().length) { flush(); return; }
        return show(response);
      }, function () {
        sending = false;
        tell("data-offline", item);
      });
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (e.defaultPrevented || !form.hasAttribute("data-keep")) { return; }
    var by = e.submitter;
    if (by && (by.getAttribute("formmethod") || "").toLowerCase() === "get") { return; }
    e.preventDefault();
    var old = document.getElementById("flash");  /* what the last post said is stale now */
    if (old) { old.remove(); }
    capture(form).then(function (item) {
      var queue = load();
      queue.push(item);
      save(queue);
      flush();
    });
  });
  window.addEventListener("online", flush);
  setInterval(flush, 5000);
  if (load().length) { tell("data-offline", load()[0]); flush(); }
})();
