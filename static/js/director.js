// The division page's players list (templates/director/_players.html): it filters as the director types, and
// "Check in all the listed" sends only the rows shown. Check-ins go without a reload (htmx posts the row's form
// and swaps the list); the filter is applied again to the new list. Also the event's dashboard (below).
(function () {
  "use strict";

  function apply() {
    var input = document.getElementById("player-filter");
    if (!input) {
      return;
    }
    var words = input.value.trim().toLowerCase();
    document.querySelectorAll("#players-list tr[data-find]").forEach(function (row) {
      var shown = !words || row.getAttribute("data-find").indexOf(words) !== -1;
      row.hidden = !shown;
      row.querySelectorAll('input[form="check-in-all"]').forEach(function (field) {
        field.disabled = !shown;
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var bar = document.getElementById("check-in-bar");
    if (!bar) {
      return;
    }
    bar.hidden = false;
    document.getElementById("player-filter").addEventListener("input", apply);
  });
  document.addEventListener("htmx:afterSwap", apply);

  // The dashboard's calls, queue and tables (templates/director/_venue_live.html) refresh themselves, but not
  // while the director is typing in one of their forms: the poll is skipped until he leaves it.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-live-part") && elt.contains(document.activeElement)) {
      event.preventDefault();
    }
  });
})();
