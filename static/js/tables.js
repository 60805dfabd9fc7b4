/*
 * A table wider than the screen (in a .table-wrap, which scrolls sideways: static/css/site.css) says so: while there
 * is more of it to the right or to the left, the wrap is marked (data-more="right", "left" or both), its edge with
 * more fades out, and a line above it says to scroll sideways. A 390 px phone
 * otherwise cut a table's last column with no hint that there was one ("manage" shown as "ma").
 *
 * The words come from the page (the body's data-scroll-hint), so they are translated with it. Tables a live part
 * brings in (htmx) are marked as they arrive. No inline script and no eval: pages run under script-src 'self'.
 */
(function () {
  "use strict";

  var words = document.body.getAttribute("data-scroll-hint") || "Scroll sideways for more";

  function mark(wrap) {
    var max = wrap.scrollWidth - wrap.clientWidth;
    var more = [];
    if (max > 1) {
      if (wrap.scrollLeft > 1) more.push("left");
      if (wrap.scrollLeft < max - 1) more.push("right");
    }
    if (more.length) {
      wrap.setAttribute("data-more", more.join(" "));
    } else {
      wrap.removeAttribute("data-more");
    }
    var hint = wrap.previousElementSibling;
    if (!(hint && hint.classList.contains("scroll-hint"))) {
      if (max <= 1) return;
      hint = document.createElement("p");
      hint.className = "scroll-hint";
      hint.textContent = words;
      wrap.parentNode.insertBefore(hint, wrap);
    }
    hint.hidden = max <= 1;
  }

  var sized = typeof ResizeObserver === "function" ? new ResizeObserver(function (seen) {
    seen.forEach(function (one) { mark(one.target); });
  }) : null;

  function watch(root) {
    var wraps = root.querySelectorAll ? root.querySelectorAll(".table-wrap") : [];
    if (root.classList && root.classList.contains("table-wrap")) mark(root);
    for (var i = 0; i < wraps.length; i++) {
      mark(wraps[i]);
      if (sized) sized.observe(wraps[i]);
    }
  }

  document.addEventListener("scroll", function (event) {
    var target = event.target;
    if (target && target.classList && target.classList.contains("table-wrap")) mark(target);
  }, true);
  window.addEventListener("resize", function () { watch(document); });
  new MutationObserver(function (changes) {
    changes.forEach(function (change) {
      change.addedNodes.forEach(function (node) { if (node.nodeType === 1) watch(node); });
    });
  }).observe(document.body, { childList: true, subtree: true });
  watch(document);
})();
