// The quick game's waiting page, live. Without this file the page reloads
// itself every few seconds (a <noscript> refresh) and the server sends it to
// the game once paired. With it: the time waited ticks every second; every few
// seconds the page checks in (a POST, which keeps the request alive and pairs
// it as the rating range widens) and swaps in the panel it gets back; and the
// player's socket (ws/lobby/) says "paired" the moment someone is, so the page
// goes to the game at once.
(function () {
  "use strict";

  var BACKOFF = [1000, 2000, 4000, 8000, 15000];
  var panel = document.getElementById("pairing");
  if (!panel) return;

  var loadedAt = Date.now();
  var leaving = false;
  var checking = false;
  var socket = null;
  var attempt = 0;
  var refresh = Number(panel.dataset.refresh || 4) * 1000;

  function go(url) {
    if (leaving) return;
    leaving = true;
    if (socket) socket.close();
    window.location.assign(url);
  }

  function clock(seconds) {
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function tick() {
    var face = panel.querySelector("[data-waited-clock]");
    if (!face) return;
    var waited = Number(panel.dataset.waited || 0) + Math.floor((Date.now() - loadedAt) / 1000);
    face.textContent = clock(waited);
  }

  function follow() {
    // What the panel now says: paired (go), or waiting (carry on), or over (stay and show why).
    if (panel.dataset.status === "matched" && panel.dataset.gameUrl) go(panel.dataset.gameUrl);
  }

  function checkIn() {
    if (leaving || checking || panel.dataset.status !== "waiting") return;
    var token = panel.querySelector("input[name=csrfmiddlewaretoken]");
    if (!token) return;
    checking = true;
    var body = new FormData();
    body.append("csrfmiddlewaretoken", token.value);
    fetch(panel.dataset.checkInUrl, {
      method: "POST",
      body: body,
      headers: { "X-Partial": "1" },
      credentials: "same-origin",
    })
      .then(function (response) {
        if (!response.ok) throw new Error("check-in answered " + response.status);
        return response.text();
      })
      .then(function (html) {
        var holder = document.createElement("div");
        holder.innerHTML = html.trim();
        var fresh = holder.querySelector("#pairing");
        if (!fresh || leaving) return;
        // Keep the cancel button under the pointer as it is while the player reaches for it.
        if (fresh.dataset.status === "waiting" && panel.dataset.status === "waiting") {
          panel.dataset.waited = fresh.dataset.waited;
          var terms = panel.querySelector(".terms");
          var freshTerms = fresh.querySelector(".terms");
          if (terms && freshTerms) terms.replaceWith(freshTerms);
        } else {
          panel.replaceWith(fresh);
          panel = fresh;
          if (panel.dataset.status !== "waiting") document.title = document.title.replace("Waiting for an opponent", "Quick game");
        }
        loadedAt = Date.now();
        tick();
        follow();
      })
      .catch(function () { /* the next check-in tries again */ })
      .finally(function () { checking = false; });
  }

  function connect() {
    if (!("WebSocket" in window) || leaving || panel.dataset.status !== "waiting") return;
    var url = window.tttSocketUrl(panel.dataset.wsUrl);
    socket = new WebSocket(url);
    socket.addEventListener("message", function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      attempt = 0;
      if (message.type === "paired" && message.url) go(message.url);
    });
    socket.addEventListener("close", function (event) {
      socket = null;
      // 4401: signed out meanwhile; 4403: another site's page. Trying again will not help
      // (checking in goes on, and says so).
      if (leaving || event.code === 4401 || event.code === 4403) return;
      // Checking in goes on meanwhile: a lost socket only delays the news by a few seconds.
      var delay = BACKOFF[Math.min(attempt, BACKOFF.length - 1)];
      attempt += 1;
      window.setTimeout(connect, delay);
    });
  }

  follow();
  tick();
  window.setInterval(tick, 1000);
  window.setInterval(checkIn, refresh);
  window.addEventListener("pagehide", function () { leaving = true; if (socket) socket.close(); });
  window.addEventListener("pageshow", function (event) {
    // Back to this page from the history: ask at once how things stand.
    if (event.persisted) { leaving = false; checkIn(); connect(); }
  });
  connect();
})();
