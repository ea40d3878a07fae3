// Progressive enhancement only: every page works without this file.
// Loaded with <script defer>; no inline scripts anywhere (a CSP is coming).
(function () {
  "use strict";

  // The address of one of the site's WebSockets: on this page's own host and
  // port, or on the port the page names when another server serves them.
  window.tttSocketUrl = function (path) {
    var port = document.querySelector('meta[name="socket-port"]');
    var host = port ? location.hostname + ":" + port.content : location.host;
    return (location.protocol === "https:" ? "wss:" : "ws:") + "//" + host + path;
  };

  // Flash messages get a close button.
  document.querySelectorAll(".message").forEach(function (message) {
    var close = document.createElement("button");
    close.type = "button";
    close.className = "message__close";
    close.setAttribute("aria-label", "Dismiss message");
    close.textContent = "\u00d7";
    close.addEventListener("click", function () {
      var list = message.parentElement;
      message.remove();
      if (list && !list.children.length) list.remove();
    });
    message.appendChild(close);
  });
})();
