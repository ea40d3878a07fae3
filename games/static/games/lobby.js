// The lobby, live. Without this file the lobby is a page to reload; with it,
// every event on ws/lobby/ (a challenge made, taken or withdrawn, a game started
// or ended, a challenge sent to you) fetches the lists again from the server
// (X-Partial) and swaps them in. When someone accepts your challenge you are
// taken to the game. The same file waits on an invite link's page for its
// challenger. While there is no socket (Redis stopped: the server closes it
// with 4503; or the network) the lists are fetched every few seconds instead.
// The socket counts as live from its first message ("ready"), not its opening:
// the server accepts a socket to tell it why it closes.
(function () {
  "use strict";

  var page = document.querySelector("[data-lobby]");
  if (!page || !("WebSocket" in window)) return;

  var BACKOFF = [1000, 2000, 4000, 8000, 15000];
  var POLL_SECONDS = 5;
  var url = window.tttSocketUrl(page.dataset.wsUrl);
  var socket = null;
  var attempt = 0;
  var connectedBefore = false;
  var leaving = false;
  var fetching = false;
  var again = false;
  var live = false;
  var polling = null;
  var stoppedWhy = "";  // closed for good (4401, 4403): why, shown instead of retrying

  function indicate() {
    var indicator = page.querySelector("[data-live-indicator]");
    if (!indicator) return;
    indicator.hidden = false;
    indicator.textContent = stoppedWhy || (live ? "live" : "offline \u2014 refreshing every " + POLL_SECONDS + " s");
    indicator.className = "live-indicator live-indicator--" + (live ? "on" : "off");
  }

  function refresh() {
    var lists = document.getElementById("lobby-lists");
    if (!lists) return;
    if (fetching) { again = true; return; }  // one more fetch once this one is back
    fetching = true;
    fetch(window.location.pathname, { headers: { "X-Partial": "1" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("lobby answered " + response.status);
        return response.text();
      })
      .then(function (html) {
        var holder = document.createElement("div");
        holder.innerHTML = html.trim();
        var fresh = holder.querySelector("#lobby-lists");
        var current = document.getElementById("lobby-lists");
        if (!fresh || !current) return;
        // Leave the lists alone while someone is in an invite link's field
        // (copying it); try again in a moment.
        var active = document.activeElement;
        if (current.contains(active) && active.tagName === "INPUT") { again = true; return; }
        current.replaceWith(fresh);
      })
      .catch(function () { /* the next event or reconnection tries again */ })
      .finally(function () {
        fetching = false;
        if (again) { again = false; window.setTimeout(refresh, 1500); }
      });
  }

  function becomeLive() {
    live = true;
    attempt = 0;
    if (polling !== null) window.clearInterval(polling);
    polling = null;
    indicate();
    if (connectedBefore) refresh();  // catch up on what happened while away
    connectedBefore = true;
  }

  function onMessage(event) {
    var message;
    try { message = JSON.parse(event.data); } catch (error) { return; }
    if (!live) becomeLive();
    if (message.type === "ready") return;
    if (message.type === "challenge_accepted" && message.url) {
      // Someone took your challenge: the game has started.
      leaving = true;
      window.location.assign(message.url);
      return;
    }
    refresh();
  }

  function connect() {
    socket = new WebSocket(url);
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", function (event) {
      socket = null;
      live = false;
      if (leaving) return;
      // 4401: signed out meanwhile; 4403: another site's page. Trying again will not help.
      if (event.code === 4401 || event.code === 4403) {
        if (polling !== null) window.clearInterval(polling);
        polling = null;
        stoppedWhy = "not live \u2014 " + (event.reason || (event.code === 4401 ? "sign in to follow the lobby" : "this page is not served by the site"));
        indicate();
        return;
      }
      // 4503 (a service behind the server is down) or a lost connection.
      if (polling === null) polling = window.setInterval(refresh, POLL_SECONDS * 1000);
      indicate();
      var delay = BACKOFF[Math.min(attempt, BACKOFF.length - 1)];
      attempt += 1;
      window.setTimeout(connect, delay);
    });
  }

  // An invite link's input selects itself whole, ready to copy.
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input[data-copy]")) event.target.select();
  });

  window.addEventListener("pagehide", function () { leaving = true; if (socket) socket.close(); });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && !socket) { leaving = false; connectedBefore = true; connect(); }
  });
  connect();
})();
