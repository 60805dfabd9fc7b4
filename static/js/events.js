/*
 * The live parts of a division page (templates/tournaments/): the standings, the current round's pairings and the
 * bracket each poll /events/<event>/<division>/live/<part>/ every 5 s through htmx. This script sends the ETag of
 * what each part shows as If-None-Match, so an unchanged part answers 304 and nothing is swapped, and it pauses
 * polling while the tab is hidden. The page works without it (and without htmx): it is then refreshed by hand.
 *
 * No inline script and no eval: the page runs under a Content-Security-Policy of script-src 'self'.
 */
(function () {
  "use strict";

  function livePart(elt) {
    return elt && elt.hasAttribute && elt.hasAttribute("data-live-part") ? elt : null;
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = livePart(event.detail.elt);
    if (elt && elt.getAttribute("data-etag")) {
      event.detail.headers["If-None-Match"] = elt.getAttribute("data-etag");
    }
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.hidden && livePart(event.detail.elt)) {
      event.preventDefault();
    }
  });
})();
