// The game page, made live. Without this file every button is a plain form
// and every replay step a plain link; with it, the same requests are sent with
// fetch and an "X-Partial: 1" header, and the server's game panel (the same
// template) is swapped in: no reload, one rendering of the truth.
(function () {
  "use strict";

  var busy = false;
  // A replay step asked for while another request is on its way: the newest
  // one is loaded when that request ends, so a quick second "Next move" counts.
  var nextPanel = null;
  var live = { settle: function () {}, panelSwapped: function () {} };  // set below for games between people

  function root() { return document.getElementById("game"); }

  function cells() {
    var game = root();
    return game ? Array.prototype.slice.call(game.querySelectorAll(".board .cell")) : [];
  }

  function swap(html, focusIndex) {
    var old = root();
    if (!old) return;
    var holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var fresh = holder.querySelector("#game");
    if (!fresh) throw new Error("no game panel in the answer");
    // Keep keyboard focus on the board across a swap the player did not ask
    // for (the opponent's move arriving), so typing a key still plays.
    var hadFocus = old.contains(document.activeElement) && document.activeElement.classList.contains("cell")
      ? Number(document.activeElement.value) : null;
    var before = { ply: old.dataset.ply, status: old.dataset.status };
    old.replaceWith(fresh);
    if (soundsOn) soundFor(before, fresh.dataset);
    if (focusIndex !== undefined && focusIndex !== null) focusNear(focusIndex);
    else if (hadFocus !== null) focusNear(hadFocus);
    live.panelSwapped();
    askAgainLater();
  }

  // Sounds, for a player who chose them on the account page (the page says so
  // once, not every panel): a short tick for each move that arrives, two
  // notes when the game ends. Made by the Web Audio API: no file to load.
  var soundsOn = Boolean(document.querySelector('meta[name="tttsite-sounds"][content="on"]'));
  var audio = null;
  function tone(frequency, start, length) {
    var oscillator = audio.createOscillator();
    var gain = audio.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, audio.currentTime + start);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + start + length);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(audio.currentTime + start);
    oscillator.stop(audio.currentTime + start + length);
  }
  function soundFor(before, after) {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    var ended = before.status === "in_progress" && after.status !== "in_progress";
    if (!ended && after.ply === before.ply) return;
    audio = audio || new Context();
    if (ended) { tone(660, 0, 0.18); tone(440, 0.2, 0.3); }
    else tone(880, 0, 0.06);
  }

  // A panel still waiting for something (the engine working on a hint or its
  // view of the position, a finished game's review being prepared by the
  // background worker) names the address to ask again; it is fetched again,
  // less often as the wait grows, until the answer replaces it. Its advice to
  // reload is for pages without this script.
  var ASK_AGAIN_MS = [700, 1000, 1500, 2000, 3000, 5000, 10000];
  var askedAgain = 0;
  var askTimer = null;

  function askAgainLater() {
    var panel = root();
    if (!panel || !panel.dataset.askAgain) { askedAgain = 0; return; }
    panel.querySelectorAll("[data-reload-advice]").forEach(function (advice) { advice.hidden = true; });
    if (askTimer !== null) return;
    var wait = ASK_AGAIN_MS[Math.min(askedAgain, ASK_AGAIN_MS.length - 1)];
    askedAgain += 1;
    askTimer = window.setTimeout(function () {
      askTimer = null;
      if (busy) { askAgainLater(); return; }  // a move or replay step is on its way: its panel will tell
      var asking = root();
      if (!asking || !asking.dataset.askAgain) return;
      request(asking.dataset.askAgain)
        .then(function (html) { if (root() === asking) swap(html); })
        .catch(function () { askAgainLater(); });
    }, wait);
  }

  function focusNear(index) {
    var all = cells();
    if (!all.length) return;
    var target = all[index];
    if (target && !target.disabled) { target.focus(); return; }
    var open = all.filter(function (cell) { return !cell.disabled; });
    if (open.length) {
      open.sort(function (a, b) {
        return Math.abs(Number(a.value) - index) - Math.abs(Number(b.value) - index);
      });
      open[0].focus();
    } else {
      var status = document.getElementById("game-status");
      if (status) { status.setAttribute("tabindex", "-1"); status.focus(); }
    }
  }

  // The server could not be reached, or said a service behind it is down
  // (503): worth saying so on the page, where a plain form would only reach
  // the same wall.
  function unavailable(reason) {
    var error = new Error(reason);
    error.unavailable = true;
    return error;
  }

  function request(url, options) {
    options = options || {};
    options.headers = Object.assign({ "X-Partial": "1" }, options.headers || {});
    options.credentials = "same-origin";
    return fetch(url, options).then(function (response) {
      // 400/403/409 answers carry the game panel with the reason in it.
      if (response.status === 503) throw unavailable("service unavailable");
      if (response.status >= 500) throw new Error("server error " + response.status);
      return response.text();
    }, function () { throw unavailable("no answer"); });
  }

  function showProblem(text) {
    var panel = root();
    var status = panel && panel.querySelector("#game-status");
    if (!status) return;
    var old = panel.querySelector(".game-error");
    if (old) old.remove();
    var note = document.createElement("p");
    note.className = "game-error";
    note.setAttribute("role", "alert");
    note.textContent = text;
    status.insertAdjacentElement("afterend", note);
  }

  // "The AI is thinking…" in the status (aria-live), and the board busy, while
  // the AI's reply is on its way. A 3x3 reply comes within milliseconds: only
  // a wait longer than THINKING_DELAY is worth saying anything about.
  var THINKING_DELAY = 200;

  function showAiThinking(game) {
    var board = game.querySelector(".board");
    if (board) { board.classList.add("board--waiting"); board.setAttribute("aria-busy", "true"); }
    var status = game.querySelector("#game-status");
    if (!status) return;
    var spinner = document.createElement("span");
    spinner.className = "spinner";
    spinner.setAttribute("aria-hidden", "true");
    status.replaceChildren(spinner, document.createTextNode("The AI is thinking\u2026"));
  }

  // A panel button whose answer takes a search (the hint): disabled and busy
  // until the answer replaces the panel; the returned function puts it back.
  function working(button) {
    var text = button.textContent;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    button.classList.add("button--busy");
    if (button.dataset.busyText) button.textContent = button.dataset.busyText;
    return function () {
      button.disabled = false;
      button.removeAttribute("aria-busy");
      button.classList.remove("button--busy");
      button.textContent = text;
    };
  }

  function playCell(button) {
    if (busy || button.disabled) return;
    var form = button.form;
    var game = root();
    var data = new FormData(form);
    data.append("cell", button.value);
    busy = true;
    var before = game.cloneNode(true);  // put back if the server cannot take the move
    // Show the move at once; the server's answer (with the AI's reply) follows.
    var mark = game.querySelector(".players__row--turn .mark");
    if (mark) {
      button.textContent = mark.textContent;
      button.classList.add("cell--" + mark.textContent.toLowerCase());
    }
    game.querySelector(".board").classList.add("board--locked");
    cells().forEach(function (cell) { cell.disabled = true; });
    var thinking = game.dataset.againstAi === "1" && window.setTimeout(function () {
      if (root() === game) showAiThinking(game);
    }, THINKING_DELAY);
    request(form.action, { method: "POST", body: data })
      .then(function (html) { swap(html, Number(button.value)); })
      .catch(function (error) {
        if (!error.unavailable) { form.requestSubmit(button); return; }  // fall back on the plain form
        root().replaceWith(before);
        showProblem("The site is not answering just now, so your move was not played. Try again in a few seconds.");
        focusNear(Number(button.value));
        live.panelSwapped();
      })
      .finally(function () { window.clearTimeout(thinking); busy = false; live.settle(); });
  }

  function loadPanel(url, push, button) {
    if (busy) {
      if (!button) nextPanel = { url: url, push: push };
      return;
    }
    busy = true;
    var restore = button ? working(button) : function () {};
    request(url)
      .then(function (html) {
        swap(html);
        if (push) history.pushState({ tttsite: true }, "", url);
        else history.replaceState({ tttsite: true }, "", url);
      })
      .catch(function () { nextPanel = null; restore(); window.location.href = url; })
      .finally(function () {
        busy = false;
        var next = nextPanel;
        nextPanel = null;
        if (next) loadPanel(next.url, next.push);
        else live.settle();
      });
  }

  // An offer, or an answer to one (data-panel-post): the same POST, answered
  // with the panel, which says what happened or why it was refused.
  function postPanel(form) {
    if (busy) return;
    busy = true;
    request(form.action, { method: "POST", body: new FormData(form) })
      .then(function (html) { swap(html); })
      .catch(function (error) {
        if (!error.unavailable) { HTMLFormElement.prototype.submit.call(form); return; }  // the plain form
        showProblem("The site is not answering just now, so nothing was sent. Try again in a few seconds.");
      })
      .finally(function () { busy = false; live.settle(); });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.hasAttribute("data-confirm") && !window.confirm(form.getAttribute("data-confirm"))) {
      event.preventDefault();
      return;
    }
    if (form.hasAttribute("data-move-form")) {
      event.preventDefault();
      if (event.submitter && event.submitter.name === "cell") playCell(event.submitter);
    } else if (form.hasAttribute("data-panel-form")) {
      event.preventDefault();
      var params = new URLSearchParams(new FormData(form));
      var query = params.toString();
      loadPanel(form.action + (query ? "?" + query : ""), false, event.submitter);
    } else if (form.hasAttribute("data-panel-post")) {
      event.preventDefault();
      postPanel(form);
    }
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#game .replay a");
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (link.getAttribute("aria-disabled") === "true") return;
    loadPanel(link.href, true);
  });

  window.addEventListener("popstate", function () {
    if (root()) loadPanel(window.location.href, false);
  });

  function moveFocus(from, dRow, dCol) {
    var game = root();
    var size = Number(game.dataset.size);
    var all = cells();
    var row = Math.floor(from / size);
    var col = from % size;
    for (var step = 1; step < size; step++) {
      var r = row + dRow * step;
      var c = col + dCol * step;
      if (r < 0 || r >= size || c < 0 || c >= size) return;
      var target = all[r * size + c];
      if (!target.disabled) { target.focus(); return; }
    }
  }

  var ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  document.addEventListener("keydown", function (event) {
    var game = root();
    if (!game || event.altKey || event.ctrlKey || event.metaKey) return;
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") return;
    var onCell = event.target.classList && event.target.classList.contains("cell");
    if (onCell && ARROWS[event.key]) {
      event.preventDefault();
      moveFocus(Number(event.target.value), ARROWS[event.key][0], ARROWS[event.key][1]);
      return;
    }
    if (game.dataset.yourTurn === "1" && /^[1-9]$/.test(event.key)) {
      var cell = game.querySelector('.cell[data-key="' + event.key + '"]');
      if (cell && !cell.disabled) { event.preventDefault(); playCell(cell); }
      return;
    }
    if (game.dataset.yourTurn !== "1" && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      var step = game.querySelector('[data-replay="' + (event.key === "ArrowLeft" ? "prev" : "next") + '"]');
      if (step && step.getAttribute("aria-disabled") !== "true") {
        event.preventDefault();
        loadPanel(step.href, true);
      }
    }
    if (game.dataset.yourTurn === "1" && ARROWS[event.key] && !onCell) {
      // The first arrow press outside the board enters it.
      event.preventDefault();
      focusNear(Math.floor(cells().length / 2));
    }
  });

  // ---- Live over a WebSocket: games between people, and the spectators of a ---
  // game against the AI (its player's own moves bring the reply with them).
  //
  // The socket only says that something happened, with the game's ply. Whenever
  // the ply (or the status) differs from the panel's, the panel is fetched from
  // the server again, so a missed message or a reconnection costs one fetch and
  // never leaves the page wrong. Moves are still sent as the POSTs above.
  // While there is no socket (Redis stopped: the server closes it with 4503;
  // or the network), the panel is fetched every few seconds instead, so the
  // opponent's moves still appear. The socket counts as live from its first
  // message: the server accepts a socket to tell it why it closes.

  var FORCE = { resigned: 1, timeout: 1, aborted: 1, rematch_offered: 1, rematch_declined: 1, rematch_cancelled: 1,
    draw_offered: 1, draw_declined: 1, draw_agreed: 1, takeback_requested: 1, takeback_declined: 1 };
  var BACKOFF = [1000, 2000, 4000, 8000, 15000];
  var POLL_SECONDS = 5;
  var TITLE_PREFIX = "Your turn \u00b7 ";

  function startLive() {
    var game = root();
    if (!game || game.dataset.live !== "1" || !("WebSocket" in window)) return;

    var url = window.tttSocketUrl(game.dataset.wsUrl);
    var socket = null;
    var attempt = 0;
    var connectedBefore = false;
    var latest = null;      // the last event's {ply, status}
    var forced = false;     // an event that changes the panel without changing the ply
    var fetching = false;
    var watchers = 0;
    var state = "connecting";
    var leaving = false;
    var expiredFetched = "";
    var polling = null;
    var stoppedWhy = "";

    var INDICATOR = {
      connecting: ["connecting\u2026", "Connecting to the game"],
      live: ["live", "Moves appear as they are played"],
      offline: ["offline \u2014 refreshing every " + POLL_SECONDS + " s",
        "No live connection: the game is fetched from the server every " + POLL_SECONDS + " seconds while it reconnects"],
      stopped: ["", "Reload the page to try again"],
    };
    // Closed for a reason that trying again will not change: the page says why
    // and stops (the server's reason when it gave one).
    var STOPPED = {
      4401: "not live \u2014 sign in to follow this game",
      4403: "not live \u2014 this page is not served by the site",
      4404: "not live \u2014 no such game",
    };

    function showIndicator() {
      var indicator = root() && root().querySelector("[data-live-indicator]");
      if (indicator) {
        indicator.hidden = false;
        indicator.textContent = state === "stopped" ? stoppedWhy : INDICATOR[state][0];
        indicator.className = "live-indicator live-indicator--" + (state === "live" ? "on" : "off");
        indicator.setAttribute("title", INDICATOR[state][1]);
      }
      var count = root() && root().querySelector("[data-watchers]");
      if (count) {
        count.hidden = watchers < 1;
        count.textContent = watchers + " watching";
      }
    }

    function outOfDate() {
      var panel = root();
      if (!panel || !latest) return false;
      if (latest.ply !== undefined && String(latest.ply) !== panel.dataset.ply) return true;
      return latest.status !== undefined && latest.status !== panel.dataset.status;
    }

    function refresh() {
      if (busy || fetching) return;  // settle() runs again when they finish
      fetching = true;
      forced = false;
      request(window.location.href)
        .then(function (html) { swap(html); })
        .catch(function () { /* the next event or reconnection tries again */ })
        .finally(function () { fetching = false; settle(); });
    }

    function settle() {
      if (busy || fetching) return;
      if (forced || outOfDate()) refresh();
    }

    function yourTurn() {
      var panel = root();
      return panel && panel.dataset.yourTurn === "1";
    }

    function updateTitle() {
      var prefixed = document.title.indexOf(TITLE_PREFIX) === 0;
      if (document.hidden && yourTurn()) {
        if (!prefixed) document.title = TITLE_PREFIX + document.title;
      } else if (prefixed) {
        document.title = document.title.slice(TITLE_PREFIX.length);
      }
    }

    function pad(n) { return (n < 10 ? "0" : "") + n; }

    function tick() {
      var panel = root();
      var left = panel && panel.querySelector("[data-countdown]");
      if (!panel || !panel.dataset.deadline) return;
      var deadline = new Date(panel.dataset.deadline).getTime();
      var seconds = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      if (left) {
        var text;
        if (seconds >= 3600) text = Math.floor(seconds / 3600) + " h " + pad(Math.floor(seconds % 3600 / 60)) + " min";
        else text = Math.floor(seconds / 60) + ":" + pad(seconds % 60);
        left.textContent = seconds > 0 ? " (" + text + " left)" : " (time is up)";
        left.parentNode.classList.toggle("clock--urgent", seconds > 0 && seconds <= 10);
      }
      // Once time is up the server decides what follows (a button to claim the
      // win): fetch the panel once for this deadline.
      if (seconds === 0 && expiredFetched !== panel.dataset.deadline && left) {
        expiredFetched = panel.dataset.deadline;
        forced = true;
        settle();
      }
    }

    function localTimes() {
      // The server writes the deadline in UTC; show it in the reader's own time.
      var panel = root();
      if (!panel) return;
      panel.querySelectorAll("[data-deadline-time]").forEach(function (time) {
        var when = new Date(time.getAttribute("datetime"));
        if (isNaN(when)) return;
        time.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
      });
    }

    function startPolling() {
      if (polling === null) polling = window.setInterval(function () { forced = true; settle(); }, POLL_SECONDS * 1000);
    }

    function stopPolling() {
      if (polling !== null) window.clearInterval(polling);
      polling = null;
    }

    function becomeLive() {
      attempt = 0;
      state = "live";
      stopPolling();
      showIndicator();
      if (connectedBefore) forced = true;  // catch up on whatever was missed
      connectedBefore = true;
    }

    function onMessage(event) {
      var message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      if (state !== "live") becomeLive();
      // Every game event, for the page's other scripts (chat.js): one socket per page.
      document.dispatchEvent(new CustomEvent("game:message", { detail: message }));
      if (message.type === "rematch_started" && message.url) {
        leaving = true;
        window.location.assign(message.url);
        return;
      }
      if (message.watchers !== undefined) {
        watchers = Number(message.watchers) || 0;
        showIndicator();
      }
      if (message.type === "refused") return;
      latest = { ply: message.ply, status: message.status };
      if (FORCE[message.type]) forced = true;
      settle();
    }

    function connect() {
      socket = new WebSocket(url);
      socket.addEventListener("message", onMessage);
      socket.addEventListener("close", function (event) {
        socket = null;
        if (leaving) return;
        // 4401: not signed in, 4403: another site's page, 4404: no such game.
        // Trying again will not help: say why, and stop.
        if (STOPPED[event.code]) {
          stopPolling();
          state = "stopped";
          stoppedWhy = event.reason ? "not live \u2014 " + event.reason : STOPPED[event.code];
          showIndicator();
          return;
        }
        // 4503 (a service behind the server is down) or a lost connection.
        state = "offline";
        startPolling();
        showIndicator();
        var delay = BACKOFF[Math.min(attempt, BACKOFF.length - 1)];
        attempt += 1;
        window.setTimeout(connect, delay);
      });
    }

    live = {
      settle: settle,
      panelSwapped: function () {
        showIndicator();
        localTimes();
        tick();
        updateTitle();
      },
    };

    document.addEventListener("visibilitychange", updateTitle);
    window.addEventListener("pagehide", function () { leaving = true; if (socket) socket.close(); });
    window.addEventListener("pageshow", function (event) {
      // Back from the browser's page cache: the socket was closed on the way out.
      if (event.persisted && !socket) { leaving = false; connectedBefore = true; connect(); }
    });
    window.setInterval(tick, 1000);
    live.panelSwapped();
    connect();
  }

  // ---- Clocks ----------------------------------------------------------------------
  //
  // The server writes each side's time left as it stood when the panel was made;
  // the running clock counts down from the panel's arrival. The server's clock
  // is the truth: when time is up there, its clock worker ends the game and the
  // socket says so; a page without one asks for the panel once time is up.

  var clockAsked = "";

  function clockText(ms) {
    ms = Math.max(0, ms);
    if (ms < 10000) return "0:0" + Math.floor(ms / 1000) + "." + Math.floor(ms % 1000 / 100);
    var seconds = Math.floor(ms / 1000);
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor(seconds % 3600 / 60);
    var rest = (seconds % 60 < 10 ? "0" : "") + seconds % 60;
    if (hours) return hours + ":" + (minutes < 10 ? "0" : "") + minutes + ":" + rest;
    return minutes + ":" + rest;
  }

  function tickClocks() {
    var game = root();
    if (!game) return;
    game.querySelectorAll("[data-clock-face][data-running]").forEach(function (face) {
      if (!face.dataset.since) face.dataset.since = String(Date.now());
      var left = Number(face.dataset.clockMs) - (Date.now() - Number(face.dataset.since));
      face.textContent = clockText(left);
      face.classList.toggle("clock-face--low", left < 10000);
      if (left < -2000 && clockAsked !== game.dataset.deadline && !busy) {
        clockAsked = game.dataset.deadline;
        request(window.location.href).then(function (html) { swap(html); }).catch(function () {});
      }
    });
  }

  window.setInterval(tickClocks, 100);

  startLive();
  askAgainLater();
})();
