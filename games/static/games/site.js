// Progressive enhancement only: every page works without this file.
// Loaded with <script defer>; no inline scripts anywhere (a CSP is coming).
(function () {
  "use strict";

  // The address of one of the site's WebSockets: on this page's own address.
  window.tttSocketUrl = function (path) {
    return (location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + path;
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
