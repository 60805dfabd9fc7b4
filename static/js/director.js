// The division page's players list (templates/director/_players.html): it filters as the director types, and
// "Check in all the listed" sends only the rows shown. Check-ins go without a reload (htmx posts the row's form
// and swaps its row; "Check in all the listed" swaps the rows it changed); the filter is applied again to the new
// rows. Also the event's dashboard (below).
(function () {
  "use strict";

  function filterRow(words, row) {
    var shown = !words || row.getAttribute("data-find").indexOf(words) !== -1;
    row.hidden = !shown;
    row.querySelectorAll('input[form="check-in-all"]').forEach(function (field) {
      field.disabled = !shown;
    });
  }

  function words() {
    var input = document.getElementById("player-filter");
    return input ? input.value.trim().toLowerCase() : null;
  }

  function apply() {
    var typed = words();
    if (typed === null) {
      return;
    }
    document.querySelectorAll("#players-list tr[data-find]").forEach(function (row) {
      filterRow(typed, row);
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
  // "Check in all the listed" answers only the rows it changed, each swapped out of band: the filter is applied
  // to each new row.
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var row = event.target; // the new row (the old one is in event.detail.target)
    var typed = words();
    if (typed !== null && row && row.matches && row.matches("#players-list tr[data-find]")) {
      filterRow(typed, row);
    }
  });

  // The dashboard's calls, queue and tables (templates/director/_venue_live.html) refresh themselves, but not
  // while the director is typing in one of their forms: the poll is skipped until he leaves it.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-live-part") && elt.contains(document.activeElement)) {
      event.preventDefault();
    }
  });

  // The club's "Add a season" form (templates/director/club.html): a field marked data-for-system (the club's own
  // table, the universal table's basis) shows only while its points system is chosen; the server ignores it
  // otherwise.
  function showSystemFields(select) {
    select.form.querySelectorAll("[data-for-system]").forEach(function (field) {
      var systems = field.getAttribute("data-for-system").split(" ");
      var box = field.closest(".field") || field;
      box.hidden = systems.indexOf(select.value) === -1;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll('select[name$="system"]').forEach(function (select) {
      if (!select.form || !select.form.querySelector("[data-for-system]")) {
        return;
      }
      showSystemFields(select);
      select.addEventListener("change", function () {
        showSystemFields(select);
      });
    });
  });

  // A match's "Replace a game's result" form (templates/director/_corrections.html): the game select carries each
  // game's recorded winner, kind and cube (data-recorded); choosing a game sets the fields to what it recorded, so
  // a director changes only what was wrong.
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("select[data-recorded]").forEach(function (select) {
      var recorded = JSON.parse(select.getAttribute("data-recorded"));
      select.addEventListener("change", function () {
        var values = recorded[select.value];
        if (!values) {
          return;
        }
        ["winner", "kind", "cube_value"].forEach(function (name, index) {
          var field = select.form.elements[select.name.replace(/game_number$/, name)];
          if (field) {
            field.value = String(values[index]);
          }
        });
      });
    });
  });
})();
