// The puzzle page, made quicker. Without this file the board is a plain GET
// form and "Start again" a plain link; with it, the same addresses are fetched
// with an "X-Partial: 1" header and the server's puzzle panel (the same
// template) is swapped in, the address updated: no reload, and every move is
// still judged by the server. Arrow keys move between the cells.
(function () {
  "use strict";

  var busy = false;

  function root() { return document.getElementById("puzzle"); }

  function cells() {
    var puzzle = root();
    return puzzle ? Array.prototype.slice.call(puzzle.querySelectorAll(".board .cell")) : [];
  }

  function focusAfterSwap(index) {
    var open = cells().filter(function (cell) { return !cell.disabled; });
    if (open.length && index !== null) {
      open.sort(function (a, b) { return Math.abs(Number(a.value) - index) - Math.abs(Number(b.value) - index); });
      open[0].focus();
      return;
    }
    var status = document.getElementById("puzzle-status");
    if (status) { status.setAttribute("tabindex", "-1"); status.focus(); }
  }

  function load(url, push, focusIndex) {
    if (busy) return;
    busy = true;
    fetch(url, { headers: { "X-Partial": "1" }, credentials: "same-origin" })
      .then(function (response) {
        // A 400 carries the panel with the reason in it; anything worse: plain navigation.
        if (response.status >= 500) throw new Error("server error " + response.status);
        return response.text();
      })
      .then(function (html) {
        var holder = document.createElement("div");
        holder.innerHTML = html.trim();
        var fresh = holder.querySelector("#puzzle");
        var old = root();
        if (!fresh || !old) throw new Error("no puzzle panel in the answer");
        old.replaceWith(fresh);
        if (push) history.pushState({ puzzle: true }, "", fresh.dataset.url);
        focusAfterSwap(focusIndex);
      })
      .catch(function () { window.location.assign(url); })
      .then(function () { busy = false; });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("[data-puzzle-form]")) return;
    var button = event.submitter;
    if (!button || button.name !== "cell") return;
    event.preventDefault();
    var params = new URLSearchParams(new FormData(form));
    params.set("cell", button.value);
    load(form.action + "?" + params.toString(), true, Number(button.value));
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-puzzle-link]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    load(link.href, true, null);
  });

  window.addEventListener("popstate", function () {
    if (root()) load(window.location.href, false, null);
  });

  // Arrow keys move between the cells, as on the game page; Enter plays.
  document.addEventListener("keydown", function (event) {
    var cell = event.target;
    if (!cell.classList || !cell.classList.contains("cell") || !root() || !root().contains(cell)) return;
    var size = Number(root().dataset.size);
    var moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -size, ArrowDown: size };
    if (!(event.key in moves)) return;
    event.preventDefault();
    var all = cells();
    // Past taken cells to the next free one that way, if there is one.
    for (var index = Number(cell.value) + moves[event.key]; index >= 0 && index < all.length; index += moves[event.key]) {
      if (!all[index].disabled) { all[index].focus(); break; }
    }
  });
})();
