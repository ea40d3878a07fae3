// The tree explorer, enhanced. Without this file every node is open and every
// step is a link that loads the page; with it the tree is a keyboard tree
// widget (the WAI-ARIA tree pattern: arrows move, open and close, Home and End
// jump, Enter searches from a node's position) and the steps move without a
// reload. Loaded with <script defer>; nothing inline (the CSP forbids it).
(function () {
  "use strict";

  var explorer = document.querySelector("[data-tree-explorer]");
  if (!explorer) return;

  function items(tree) {
    return Array.prototype.slice.call(tree.querySelectorAll('[role="treeitem"]'));
  }

  function parentItem(item) {
    var group = item.parentElement.closest('[role="group"]');
    return group ? group.closest('[role="treeitem"]') : null;
  }

  function isShown(item) {
    for (var up = parentItem(item); up; up = parentItem(up)) {
      if (up.getAttribute("aria-expanded") === "false") return false;
    }
    return true;
  }

  function shownItems(tree) {
    return items(tree).filter(isShown);
  }

  function focusItem(tree, item) {
    items(tree).forEach(function (other) {
      other.tabIndex = other === item ? 0 : -1;
    });
    item.focus();
  }

  function setOpen(item, open) {
    if (item.hasAttribute("aria-expanded")) item.setAttribute("aria-expanded", open ? "true" : "false");
  }

  function firstChild(item) {
    var group = item.querySelector(':scope > [role="group"]');
    return group ? group.querySelector(':scope > [role="treeitem"]') : null;
  }

  function onKey(tree, event) {
    var item = event.target.closest('[role="treeitem"]');
    if (!item || event.altKey || event.ctrlKey || event.metaKey) return;
    var shown = shownItems(tree);
    var at = shown.indexOf(item);
    var target = null;
    switch (event.key) {
      case "ArrowDown":
        target = shown[at + 1];
        break;
      case "ArrowUp":
        target = shown[at - 1];
        break;
      case "Home":
        target = shown[0];
        break;
      case "End":
        target = shown[shown.length - 1];
        break;
      case "ArrowRight":
        if (item.getAttribute("aria-expanded") === "false") setOpen(item, true);
        else if (item.getAttribute("aria-expanded") === "true") target = firstChild(item);
        break;
      case "ArrowLeft":
        if (item.getAttribute("aria-expanded") === "true") setOpen(item, false);
        else target = parentItem(item);
        break;
      case "Enter":
        if (item.dataset.explore) window.location.assign(item.dataset.explore);
        break;
      case " ":
        if (item.hasAttribute("aria-expanded")) {
          setOpen(item, item.getAttribute("aria-expanded") === "false");
        }
        break;
      default:
        return;
    }
    event.preventDefault();
    if (target) focusItem(tree, target);
  }

  function toolbar(tree) {
    var bar = document.createElement("div");
    bar.className = "tree-steps__buttons";
    [["Open all", true], ["Close all", false]].forEach(function (choice) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "button button--ghost button--small";
      button.textContent = choice[0];
      button.addEventListener("click", function () {
        items(tree).forEach(function (item) {
          setOpen(item, choice[1]);
        });
        setOpen(items(tree)[0], true); // the root stays open: its moves are the first thing to see
      });
      bar.appendChild(button);
    });
    tree.parentElement.insertBefore(bar, tree);
  }

  function setUpTree() {
    var tree = explorer.querySelector('[role="tree"]');
    if (!tree) return;
    var all = items(tree);
    all.forEach(function (item) {
      item.tabIndex = -1;
      if (item.hasAttribute("data-fold")) setOpen(item, false);
    });
    // Links stay reachable with Enter on their node, so Tab leaves the tree in one step.
    tree.querySelectorAll("a").forEach(function (link) {
      link.tabIndex = -1;
    });
    var current = tree.querySelector('[aria-current="step"]') || all[0];
    if (current) current.tabIndex = 0;
    tree.addEventListener("keydown", function (event) {
      onKey(tree, event);
    });
    tree.addEventListener("click", function (event) {
      if (event.target.closest("a")) return;
      var item = event.target.closest('[role="treeitem"]');
      if (!item) return;
      if (item.hasAttribute("aria-expanded")) setOpen(item, item.getAttribute("aria-expanded") === "false");
      focusItem(tree, item);
    });
    toolbar(tree);
    return tree;
  }

  // -- steps without a reload ----------------------------------------------------

  // A step swaps the explorer's insides, so the story that says what happened is
  // new each time; a live region that stays put reads it out.
  var announcer = document.createElement("div");
  announcer.className = "visually-hidden";
  announcer.setAttribute("aria-live", "polite");
  document.body.appendChild(announcer);

  function announce() {
    var where = explorer.querySelector(".tree-steps__where");
    var story = explorer.querySelector("[data-step-story]");
    announcer.textContent = [where, story].filter(Boolean).map(function (part) {
      return part.textContent.trim().replace(/\s+/g, " ");
    }).join(". ");
  }

  function show(url, focusName, push) {
    return fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("step not loaded: " + response.status);
        return response.text();
      })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.querySelector("[data-tree-explorer]");
        if (!fresh) throw new Error("no tree in the answer");
        explorer.innerHTML = fresh.innerHTML;
        if (push) window.history.pushState({ tree: true }, "", url);
        setUpTree();
        announce();
        var current = explorer.querySelector('[aria-current="step"]');
        if (current) current.scrollIntoView({ block: "nearest" });
        var again = explorer.querySelector('[data-step-link="' + focusName + '"]');
        var story = explorer.querySelector("[data-step-story]");
        if (again) again.focus();
        else if (story) {
          story.tabIndex = -1;
          story.focus();
        }
      })
      .catch(function () {
        window.location.assign(url);
      });
  }

  explorer.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-step-link]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    show(link.href, link.dataset.stepLink, true);
  });

  window.addEventListener("popstate", function () {
    show(window.location.href, "next", false);
  });

  setUpTree();
})();
