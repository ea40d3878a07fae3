// The chat of a game between people, made live. Without this file the chat is
// plain forms that POST and come back to the game page. With it, the same
// POSTs are sent with fetch and an "X-Partial: 1" header and the server's chat
// box (templates/games/_chat.html) is swapped in; other people's messages
// arrive over the game's WebSocket, which game.js owns: it passes every event
// on as a "game:message" event on document. Text is only ever set as
// textContent, never as HTML.
(function () {
  "use strict";

  var sending = false;

  function box() { return document.getElementById("chat"); }

  function items(scope) { return Array.prototype.slice.call(scope.querySelectorAll("[data-message-id]")); }

  function lastId(scope) {
    var all = items(scope);
    return all.length ? Number(all[all.length - 1].dataset.messageId) : 0;
  }

  // A player who muted the opponent does not see them (the server leaves
  // their messages out; a message already on its way over the socket is dropped here).
  function hiddenFrom(chat, side) { return Boolean(chat.dataset.mutedSide) && chat.dataset.mutedSide === side; }

  function localTimes(scope) {
    // The server writes times in UTC; show them in the reader's own time.
    scope.querySelectorAll("[data-chat-time]").forEach(function (time) {
      var when = new Date(time.getAttribute("datetime"));
      if (!isNaN(when)) time.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
    });
  }

  function tidy(chat) {
    var empty = chat.querySelector("[data-chat-empty]");
    if (empty) empty.hidden = items(chat).length > 0;
    var list = chat.querySelector("[data-chat-messages]");
    if (list) list.scrollTop = list.scrollHeight;
  }

  // Put the server's chat box in place: the whole box after the reader acted
  // (a message sent, a mute), only its messages when catching up (so what is
  // being typed stays). Messages that arrived over the socket after the
  // server drew the box are kept.
  function swap(html, whole) {
    var old = box();
    var holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var fresh = holder.querySelector("#chat");
    if (!old || !fresh) return;
    var freshList = fresh.querySelector("[data-chat-messages]");
    var last = lastId(freshList);
    items(old).forEach(function (item) {
      if (Number(item.dataset.messageId) > last && !hiddenFrom(fresh, item.dataset.side)) freshList.appendChild(item);
    });
    localTimes(fresh);
    if (whole) {
      // What was typed while the request was out is not the server's to wipe.
      var typed = old.querySelector(".chat__input");
      var input = fresh.querySelector(".chat__input");
      if (typed && input && typed.value && !input.value) input.value = typed.value;
      old.replaceWith(fresh);
    } else {
      old.querySelector("[data-chat-messages]").replaceWith(freshList);
      if (fresh.dataset.mutedSide) old.dataset.mutedSide = fresh.dataset.mutedSide;
      else delete old.dataset.mutedSide;
    }
    tidy(box());
  }

  function showProblem(text) {
    var chat = box();
    if (!chat) return;
    var note = chat.querySelector(".chat__error") || document.createElement("p");
    note.className = "game-error chat__error";
    note.setAttribute("role", "alert");
    note.textContent = text;
    var form = chat.querySelector("[data-chat-form]");
    if (form) form.insertAdjacentElement("beforebegin", note);
  }

  function append(message) {
    var chat = box();
    if (!chat || !message || hiddenFrom(chat, message.side)) return;
    var id = Number(message.id);
    if (chat.querySelector('[data-message-id="' + id + '"]')) return;  // already shown
    var item = document.createElement("li");
    item.className = "chat__message" + (chat.dataset.yourSide === message.side ? " chat__message--own" : "");
    item.dataset.messageId = String(id);
    item.dataset.side = message.side;
    var time = document.createElement("time");
    time.className = "chat__time";
    time.setAttribute("datetime", message.created_at);
    time.setAttribute("data-chat-time", "");
    var author = document.createElement("span");
    author.className = "chat__author mark mark--" + (message.side === "X" ? "x" : "o");
    author.textContent = message.author;
    var text = document.createElement("span");
    text.className = "chat__text";
    text.textContent = message.text;
    item.append(time, " ", author, " ", text);
    if (chat.dataset.reportUrl && chat.dataset.yourSide !== message.side) {
      var report = document.createElement("a");
      report.className = "chat__report";
      report.href = chat.dataset.reportUrl + "?message=" + id;
      report.textContent = "Report";
      report.setAttribute("aria-label", "Report this message from " + message.author);
      item.append(" ", report);
    }
    localTimes(item);
    // In the order they were sent, should an event overtake another.
    var list = chat.querySelector("[data-chat-messages]");
    var later = items(list).filter(function (other) { return Number(other.dataset.messageId) > id; })[0];
    list.insertBefore(item, later || null);
    tidy(chat);
  }

  function catchUp() {
    var chat = box();
    if (!chat) return;
    fetch(chat.dataset.chatUrl, { headers: { "X-Partial": "1" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("chat " + response.status);
        return response.text();
      })
      .then(function (html) { swap(html, false); })
      .catch(function () { /* the next (re)connection tries again */ });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest("#chat") || !(form.hasAttribute("data-chat-form") || form.hasAttribute("data-chat-mute-form"))) return;
    event.preventDefault();
    if (sending) return;
    sending = true;
    var typing = form.hasAttribute("data-chat-form");
    var input = typing && form.querySelector(".chat__input");
    var text = input ? input.value : "";
    var body = new FormData(form);
    if (input) input.value = "";  // ready for the next message at once; a refusal brings this one back
    fetch(form.action, {
      method: "POST",
      body: body,
      headers: { "X-Partial": "1" },
      credentials: "same-origin",
    })
      .then(function (response) {
        // Refusals (400, 403, 409, 429) come back as the chat box saying why.
        if (response.status === 503) throw new Error("unavailable");
        if (response.status >= 500 || response.status === 404) {
          if (input) input.value = text;
          form.submit();
          return null;
        }
        return response.text();
      })
      .then(function (html) {
        if (html === null) return;
        swap(html, true);
        var fresh = typing && box().querySelector(".chat__input");
        if (fresh) fresh.focus();
      })
      .catch(function () {
        var current = box() && box().querySelector(".chat__input");
        if (current && !current.value) current.value = text;
        showProblem("The site is not answering just now, so your message was not sent. Try again in a few seconds.");
      })
      .finally(function () { sending = false; });
  });

  document.addEventListener("game:message", function (event) {
    var message = event.detail || {};
    if (message.type === "chat") append(message.message);
    else if (message.type === "state") catchUp();  // (re)connected: fetch what was missed
  });

  var chat = box();
  if (chat) {
    localTimes(chat);
    tidy(chat);
  }
})();
