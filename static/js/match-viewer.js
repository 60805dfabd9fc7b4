/*
 * The spectator match page (templates/games/match_detail.html), on top of a page that works without it:
 *
 * - Live part: htmx polls /matches/<id>/live/ every 3 s; this script sends the ETag of what is shown as
 *   If-None-Match, so an unchanged match answers 304 and nothing is swapped; polling pauses in a hidden tab.
 *   The address is the same for every spectator of the match (?game=<n> only while an earlier game is shown),
 *   so that a proxy's cache serves them all one copy. The move list is outside the live part: a 200 carries the
 *   shown game's whole list, which htmx swaps in out of band; the item of the board shown stays marked.
 * - Replay: the move list's links, the Previous/Next links and the left/right arrow keys (Home/End: first/last)
 *   fetch the board fragment /matches/<id>/board/?at=<seq> and swap it in without a reload; the address bar
 *   follows (?at=<seq>), so a reload or a shared link shows the same board.
 *
 * No inline script and no eval: the page can run under a Content-Security-Policy of script-src 'self'.
 */
(function () {
  "use strict";

  var article = document.querySelector("article.match[data-board-url]");
  if (!article) {
    return;
  }
  var boardUrl = article.getAttribute("data-board-url");
  var pageUrl = article.getAttribute("data-page-url");
  var fragments = new Map();

  // -- live part: conditional polling ------------------------------------------------------------------------
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.id === "live" && elt.getAttribute("data-etag")) {
      event.detail.headers["If-None-Match"] = elt.getAttribute("data-etag");
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.hidden && event.detail.elt && event.detail.elt.id === "live") {
      event.preventDefault();
    }
  });

  document.addEventListener("htmx:oobAfterSwap", function () {
    var board = document.getElementById("replay-board");
    var seq = board ? board.getAttribute("data-seq") : null;
    if (seq) {
      markCurrent(seq, false);
    }
  });

  // -- replay -------------------------------------------------------------------------------------------------
  function moveLinks() {
    return Array.prototype.slice.call(document.querySelectorAll("#move-list a[data-seq]"));
  }

  function currentIndex(links) {
    var board = document.getElementById("replay-board");
    var seq = board ? board.getAttribute("data-seq") : null;
    if (!seq) {
      return -1;
    }
    for (var i = 0; i < links.length; i += 1) {
      if (links[i].getAttribute("data-seq") === seq) {
        return i;
      }
    }
    return -1;
  }

  function markCurrent(seq, scroll) {
    moveLinks().forEach(function (link) {
      if (link.getAttribute("data-seq") === seq) {
        link.setAttribute("aria-current", "step");
        if (scroll) {
          link.scrollIntoView({ block: "nearest" });
        }
      } else {
        link.removeAttribute("aria-current");
      }
    });
  }

  function fetchBoard(seq) {
    if (!fragments.has(seq)) {
      var request = fetch(boardUrl + "?at=" + encodeURIComponent(seq), { credentials: "same-origin" }).then(
        function (response) {
          if (!response.ok) {
            throw new Error("board " + seq + ": HTTP " + response.status);
          }
          return response.text();
        }
      );
      fragments.set(seq, request);
    }
    return fragments.get(seq);
  }

  function swapBoard(html, seq, focus) {
    var holder = document.createElement("div");
    holder.innerHTML = html; // a fragment rendered by this site, every text in it escaped by the server
    var fresh = holder.querySelector("#replay-board");
    var old = document.getElementById("replay-board");
    if (!fresh || !old) {
      return;
    }
    old.replaceWith(fresh);
    markCurrent(seq, true);
    history.replaceState(null, "", pageUrl + "?at=" + encodeURIComponent(seq) + "#replay");
    var caption = fresh.querySelector("figcaption");
    var status = document.getElementById("replay-status");
    if (status && caption) {
      status.textContent = caption.textContent;
    }
    if (focus) {
      fresh.focus({ preventScroll: true });
      fresh.scrollIntoView({ block: "nearest" });
    }
  }

  function show(seq, focus) {
    fetchBoard(seq)
      .then(function (html) {
        swapBoard(html, seq, focus);
      })
      .catch(function () {
        fragments.delete(seq);
        window.location.assign(pageUrl + "?at=" + encodeURIComponent(seq) + "#replay");
      });
  }

  document.addEventListener("click", function (event) {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) {
      return;
    }
    var link = event.target.closest("a[data-seq], a[data-target-seq]");
    if (!link || !document.getElementById("replay-board")) {
      return;
    }
    var seq = link.getAttribute("data-target-seq") || link.getAttribute("data-seq");
    event.preventDefault();
    show(seq, true);
  });

  var KEYS = {
    ArrowLeft: function (i, n) { return i < 0 ? n - 1 : Math.max(i - 1, 0); },
    ArrowRight: function (i) { return i < 0 ? 0 : i + 1; },
    Home: function () { return 0; },
    End: function (i, n) { return n - 1; },
  };

  document.addEventListener("keydown", function (event) {
    var step = KEYS[event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    var target = event.target;
    var inReplay = target.closest && target.closest("#replay");
    if (!inReplay && target !== document.body) {
      return;
    }
    var links = moveLinks();
    if (!links.length || !document.getElementById("replay-board")) {
      return;
    }
    var from = currentIndex(links);
    var to = Math.min(step(from, links.length), links.length - 1);
    event.preventDefault();
    if (to !== from) {
      show(links[to].getAttribute("data-seq"), Boolean(inReplay));
    }
  });
})();
