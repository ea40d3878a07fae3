// The analysis board's keys. Progressive enhancement only: every cell and
// every step is already a link, so the page works without this file.
//   - On the board, the arrows move between the free cells (marked cells are
//     skipped); Enter follows the focused cell's link, as for any link.
//   - Elsewhere, Left and Right step back and forward through the moves.
(function () {
  "use strict";

  var root = document.getElementById("analysis");
  if (!root) return;
  var size = Number(root.dataset.size);
  var board = root.querySelector("[data-board]");
  var ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  function cellAt(index) {
    return board.querySelector('[data-index="' + index + '"]');
  }

  // The nearest free cell (a link) in one direction, or null at the edge.
  function freeCellFrom(index, dRow, dCol) {
    var row = Math.floor(index / size);
    var col = index % size;
    for (var step = 1; step < size; step++) {
      var r = row + dRow * step;
      var c = col + dCol * step;
      if (r < 0 || r >= size || c < 0 || c >= size) return null;
      var cell = cellAt(r * size + c);
      if (cell && cell.tagName === "A") return cell;
    }
    return null;
  }

  function follow(step) {
    var link = root.querySelector('[data-step="' + step + '"]');
    if (link && link.getAttribute("aria-disabled") !== "true") window.location.href = link.href;
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") return;
    var direction = ARROWS[event.key];
    if (!direction) return;
    if (board && board.contains(event.target) && event.target.dataset.index) {
      event.preventDefault();
      var next = freeCellFrom(Number(event.target.dataset.index), direction[0], direction[1]);
      if (next) next.focus();
      return;
    }
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      event.preventDefault();
      follow(event.key === "ArrowLeft" ? "prev" : "next");
    }
  });

  // The keys work only with this file: only then are they offered.
  var help = root.querySelector("[data-keys-help]");
  if (help) help.hidden = false;

  // The link to share: one click selects it all, ready to copy.
  var share = root.querySelector("[data-share]");
  if (share) share.addEventListener("focus", function () { share.select(); });
})();
