// "Copy link" buttons beside invite links. Without this file the buttons stay
// hidden and the link is a read-only field to select and copy by hand. With it,
// a click puts the link on the clipboard (navigator.clipboard, or the older
// execCommand("copy") on the selected field where that is refused) and says
// "Copied" in a status region next to it; if neither works, the link is left
// selected and the status says how to copy it.
(function () {
  "use strict";

  document.documentElement.classList.add("can-copy");
  var CLEAR_AFTER = 4000;

  function say(button, text) {
    var holder = button.closest(".invite-link");
    var status = holder && holder.querySelector("[data-copy-status]");
    var label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    button.textContent = text === "Copied" ? "Copied" : label;
    if (status) status.textContent = text === "Copied" ? "Copied: the link is on your clipboard." : text;
    window.clearTimeout(Number(button.dataset.timer || 0));
    button.dataset.timer = String(window.setTimeout(function () {
      button.textContent = label;
      if (status) status.textContent = "";
    }, CLEAR_AFTER));
  }

  function selectAll(input) {
    input.focus();
    input.select();
    input.setSelectionRange(0, input.value.length);
  }

  function copyBySelection(input) {
    selectAll(input);
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy-button]");
    if (!button) return;
    var input = document.getElementById(button.getAttribute("aria-controls"));
    if (!input) return;
    var copied = function () { say(button, "Copied"); };
    var byHand = function () {
      if (copyBySelection(input)) { copied(); return; }
      selectAll(input);
      say(button, "The link is selected: press Ctrl+C (\u2318C on a Mac) to copy it.");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(copied, byHand);
    } else {
      byHand();
    }
  });
})();
