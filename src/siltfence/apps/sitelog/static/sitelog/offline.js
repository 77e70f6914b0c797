// Keeps the site log form's draft on the phone through a lost connection, and sends it
// again when the connection is back. The form works without this script.
(function () {
  "use strict";
  var form = document.querySelector("form[data-offline-draft]");
  if (!form || !window.localStorage || !window.fetch) { return; }
  var key = "siltfence-site-log-" + form.getAttribute("data-offline-draft");
  var status = form.querySelector("[data-offline-status]");
  var fields = Array.prototype.filter.call(form.elements, function (el) {
    return el.name && el.type !== "file" && el.name !== "csrfmiddlewaretoken";
  });

  function say(text) {
    if (!status) { return; }
    status.textContent = text;
    status.hidden = !text;
  }
  function read() {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  function keep(pending) {
    var draft = { pending: pending, values: {} };
    fields.forEach(function (el) { draft.values[el.name] = el.value; });
    localStorage.setItem(key, JSON.stringify(draft));
  }
  function send(draft) {
    var body = new FormData();
    body.append("csrfmiddlewaretoken", form.elements.csrfmiddlewaretoken.value);
    Object.keys(draft.values).forEach(function (name) { body.append(name, draft.values[name]); });
    return fetch(form.action || window.location.href, {
      method: "POST", body: body, credentials: "same-origin", redirect: "follow"
    }).then(function (response) {
      if (response.ok && response.redirected) {
        localStorage.removeItem(key);
        window.location.href = response.url;
        return;
      }
      if (response.status === 400) {  // refused: show the form with its message
        localStorage.removeItem(key);
        return response.text().then(function (html) {
          document.open(); document.write(html); document.close();
        });
      }
      throw new Error("not sent");
    });
  }

  // The page after a save: the entry reached the server, so nothing waits to be sent.
  if (new URLSearchParams(window.location.search).has("saved")) { localStorage.removeItem(key); }
  var draft = read();
  if (draft && draft.values) {
    fields.forEach(function (el) {
      if (el.name in draft.values && el.name !== "client_token" || (el.name === "client_token" && draft.pending)) {
        el.value = draft.values[el.name];
      }
    });
    if (draft.pending) {
      say("An entry saved on this phone is waiting to be sent.");
      if (navigator.onLine) { send(draft).catch(function () {}); }
    }
  }

  form.addEventListener("input", function () { keep(false); });
  form.addEventListener("submit", function (event) {
    var photos = form.querySelector("input[type=file]");
    var hasPhotos = photos && photos.files && photos.files.length > 0;
    keep(true);
    if (navigator.onLine || hasPhotos) { return; }  // the browser sends it as usual
    event.preventDefault();
    say("No connection: the entry is saved on this phone and will be sent when the connection is back.");
  });
  window.addEventListener("online", function () {
    var waiting = read();
    if (waiting && waiting.pending) {
      say("Connection back: sending the saved entry.");
      send(waiting).catch(function () {
        say("Still no connection: the entry stays saved on this phone.");
      });
    }
  });
}());
