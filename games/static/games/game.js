// The game page, made live. Without this file every button is a plain form
// and every replay step a plain link; with it, the same requests are sent with
// fetch and an "X-Partial: 1" header, and the server's game panel (the same
// template) is swapped in: no reload, one rendering of the truth.
(function () {
  "use strict";

  var busy = false;

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
    old.replaceWith(fresh);
    if (focusIndex !== undefined && focusIndex !== null) focusNear(focusIndex);
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

  function request(url, options) {
    options = options || {};
    options.headers = Object.assign({ "X-Partial": "1" }, options.headers || {});
    options.credentials = "same-origin";
    return fetch(url, options).then(function (response) {
      // 400/403/409 answers carry the game panel with the reason in it.
      if (response.status >= 500) throw new Error("server error " + response.status);
      return response.text();
    });
  }

  function playCell(button) {
    if (busy || button.disabled) return;
    var form = button.form;
    var game = root();
    var data = new FormData(form);
    data.append("cell", button.value);
    busy = true;
    // Show the move at once; the server's answer (with the AI's reply) follows.
    var mark = game.querySelector(".players__row--turn .mark");
    if (mark) {
      button.textContent = mark.textContent;
      button.classList.add("cell--" + mark.textContent.toLowerCase());
    }
    game.querySelector(".board").classList.add("board--locked");
    cells().forEach(function (cell) { cell.disabled = true; });
    request(form.action, { method: "POST", body: data })
      .then(function (html) { swap(html, Number(button.value)); })
      .catch(function () { form.requestSubmit(button); })  // fall back on the plain form
      .finally(function () { busy = false; });
  }

  function loadPanel(url, push) {
    if (busy) return;
    busy = true;
    request(url)
      .then(function (html) {
        swap(html);
        if (push) history.pushState({ tttsite: true }, "", url);
        else history.replaceState({ tttsite: true }, "", url);
      })
      .catch(function () { window.location.href = url; })
      .finally(function () { busy = false; });
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
      loadPanel(form.action + (query ? "?" + query : ""), false);
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
})();
