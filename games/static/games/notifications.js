// The header's bell, live. Without this file the bell's count is the one the
// page was rendered with; with it, ws/notifications/ pushes each new
// notification (the count changes and a note says what happened, with its
// link) and each "marked read" (the count goes down), on every page.
(function () {
  "use strict";
  var bell = document.querySelector("[data-bell-socket]");
  if (!bell || !("WebSocket" in window)) return;
  var count = bell.querySelector("[data-bell-count]");
  var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
  var url = scheme + window.location.host + bell.dataset.bellSocket;
  var BACKOFF = [1000, 2000, 5000, 10000, 30000];
  var attempt = 0, socket = null, leaving = false;

  function show(unread) {
    count.textContent = String(unread);
    count.hidden = unread === 0;
    bell.classList.toggle("bell--unread", unread > 0);
    bell.setAttribute("aria-label", unread ? "Notifications, " + unread + " unread" : "Notifications");
  }

  function note(notification) {
    var region = document.getElementById("notification-note");
    if (!region) {
      region = document.createElement("div");
      region.id = "notification-note";
      region.className = "notification-note";
      region.setAttribute("role", "status");
      document.body.appendChild(region);
    }
    var link = document.createElement("a");
    link.href = notification.url;
    link.textContent = notification.text;
    region.replaceChildren(link);
    region.hidden = false;
    window.clearTimeout(note.timer);
    note.timer = window.setTimeout(function () { region.hidden = true; }, 10000);
  }

  function onMessage(event) {
    var message;
    try { message = JSON.parse(event.data); } catch (error) { return; }
    attempt = 0;
    if (typeof message.unread === "number") show(message.unread);
    if (message.type === "notification" && message.notification) note(message.notification);
  }

  function connect() {
    socket = new WebSocket(url);
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", function (event) {
      socket = null;
      // 4401: signed out meanwhile; 4403: another site's page. Trying again will not help.
      if (leaving || event.code === 4401 || event.code === 4403) return;
      window.setTimeout(connect, BACKOFF[Math.min(attempt, BACKOFF.length - 1)]);
      attempt += 1;
    });
  }

  window.addEventListener("pagehide", function () { leaving = true; if (socket) socket.close(); });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && !socket) { leaving = false; connect(); }
  });
  connect();
})();
