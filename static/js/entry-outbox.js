/*
 * The entry page's outbox (templates/entry/match.html, #entry-outbox): an entry made while the phone is off the
 * network is kept on the phone and sent as soon as the connection is back. On top of a page that works without it:
 * without this script every form posts and the answer is a new page, as before.
 *
 * - Every entry form of the match (form.entry-form posting to the page, and the panels' answers: confirm a result,
 *   dispute it, which lead back to the page too) is sent by this script instead of the browser: the form's fields as they are (the CSRF token, the sequence number the page showed, the form's
 *   idempotency key). Recorded (a 303 back to the page), the live part of the page it leads to takes the place of
 *   the page's own, as the page a posted form leads to would have.
 * - The network down (the request fails, or gets no answer within 15 s), the entry stays in the outbox, kept in
 *   localStorage for this page (a reload on the same page keeps it), and the page says it is waiting to be sent
 *   and how many. It is sent again every few seconds and as soon as the browser says it is back online; entries
 *   go one at a time, in the order they were made. Sending one again is safe: the server answers a repeated
 *   idempotency key with its first answer and records nothing twice.
 * - While entries wait, the page's forms are out of date (their sequence numbers): they are disabled, except
 *   the next entry the player can make without the server: the next game's result on a scoresheet, and after a
 *   roll, the play typed in notation (the tap-to-move board needs the server's legal plays); after the opening
 *   roll, the play of its winner (the higher die) when this phone holds his side. These carry the next
 *   sequence number and a new key; the server checks them when they arrive. The live part does not poll meanwhile.
 * - On a scoresheet the phone keeps the score of the results waiting (the header shows it, marked as not sent
 *   yet), the game number and the Crawford game as the server would (afterGame: a mirror of engine/match.py that a
 *   browser test compares with the engine for every score); once they reach the match length it says the match is
 *   over once they are sent, and offers no further game.
 * - Refused on arrival (the opponent entered first, the director corrected something, an illegal play), the
 *   refusal is shown with the server's reason and the page as it is now; the entries made after it are not sent
 *   (each was made on top of the refused one) and the page lists them, to enter again.
 * - Sent after a wait, the page says so once it has loaded again ("Sent when the connection came back: ...");
 *   only an entry that did wait (its send failed) is named there: one kept by a page closed before the server's
 *   answer, on the network, is sent again quietly when the page is opened again.
 *
 * No inline script and no eval: the page runs under a Content-Security-Policy of script-src 'self'.
 */
(function () {
  "use strict";

  var box = document.getElementById("entry-outbox");
  if (!box || !window.fetch || !window.localStorage || !window.URLSearchParams) {
    return; // the forms post as they do without JavaScript
  }
  var words = box.dataset; // waitingOne, waitingMany, sent, refused, dropped, ... (templates/entry/match.html)
  var pageUrl = box.getAttribute("data-url");
  var pageHref = new URL(pageUrl, window.location.href).href;
  var storeKey = "bgmatch-outbox:" + pageUrl;
  var TIMEOUT = 15000; // ms without an answer: the connection is taken as down
  var RETRY = [2000, 3000, 5000, 8000]; // ms between attempts while it is down (the last one repeats)
  var state = load();
  var sending = false;
  var failures = 0;
  var timer = null;
  var pending = null; // the form last sent

  // -- storage ------------------------------------------------------------------------------------------------
  function load() {
    try {
      var kept = JSON.parse(window.localStorage.getItem(storeKey) || "null");
      if (kept && Array.isArray(kept.items)) {
        return { items: kept.items, sent: kept.sent || [], waited: !!kept.waited, report: kept.report || null };
      }
    } catch (error) {
      // unreadable: start empty
    }
    return { items: [], sent: [], waited: false, report: null };
  }

  function save() {
    try {
      if (!state.items.length && !state.report) {
        window.localStorage.removeItem(storeKey);
      } else {
        window.localStorage.setItem(storeKey, JSON.stringify(state));
      }
    } catch (error) {
      // storage full or refused: the in-page outbox still carries the entries while the page is open
    }
  }

  // -- words --------------------------------------------------------------------------------------------------
  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) {
      return values[name] === undefined ? all : String(values[name]);
    });
  }

  function field(fields, name) {
    for (var i = 0; i < fields.length; i += 1) {
      if (fields[i][0] === name) {
        return fields[i][1];
      }
    }
    return "";
  }

  function text(elt) {
    return elt ? elt.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function checkedLabel(form, name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return text(input ? input.closest("label") : null);
  }

  /** What the entry is, in words: "Roll 5-3", "Play 13/8 6/3", "Game 2: Alice won (gammon, cube 2)": the words
   * of the button pressed or of the form (data-entry), filled in with what was chosen. */
  function describe(form, fields, button) {
    var values = {
      dice: field(fields, "die1") + "-" + field(fields, "die2"),
      play: field(fields, "play"),
      die: field(fields, "die"),
      cube: field(fields, "cube") || "1",
      game: form.getAttribute("data-game") || "",
      winner: checkedLabel(form, "winner"),
      result: button && button.name === "result" ? text(button) : checkedLabel(form, "result") || "1",
    };
    var said = (button && button.getAttribute("data-entry")) || form.getAttribute("data-entry") || words.other;
    if (field(fields, "kind") === "play" && !values.play.trim() && form.getAttribute("data-pass")) {
      said = form.getAttribute("data-pass");
    }
    return fill(said, values);
  }

  // -- the outbox on the page ----------------------------------------------------------------------------------
  function render() {
    var waiting = state.items.length;
    var title = box.querySelector(".outbox-title");
    var list = box.querySelector(".outbox-list");
    var report = box.querySelector(".outbox-report");
    list.textContent = "";
    report.textContent = "";
    box.classList.toggle("is-waiting", waiting > 0 && (state.waited || failures > 0));
    box.classList.toggle("is-refused", !!(state.report && state.report.refused));
    if (waiting && (state.waited || failures > 0)) {
      title.textContent = fill(waiting === 1 ? words.waitingOne : words.waitingMany, { count: waiting });
      state.items.forEach(function (item) {
        var line = document.createElement("li");
        line.textContent = item.label;
        list.appendChild(line);
      });
    } else {
      title.textContent = "";
    }
    if (state.report) {
      addReport(report, state.report);
    }
    box.hidden = !title.textContent && !report.childNodes.length;
  }

  function addLine(parent, text, className) {
    var line = document.createElement("p");
    line.textContent = text;
    if (className) {
      line.className = className;
    }
    parent.appendChild(line);
  }

  function addReport(parent, report) {
    if (report.sent && report.sent.length) {
      addLine(parent, fill(words.sent, { entries: report.sent.join("; ") }), "outbox-sent");
    }
    if (report.refused) {
      addLine(parent, fill(words.refused, { entry: report.refused.label, reason: report.refused.reason }), "outbox-refusal");
    }
    if (report.dropped && report.dropped.length) {
      addLine(parent, fill(words.dropped, { entries: report.dropped.join("; ") }), "outbox-dropped");
    }
    var dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "outbox-dismiss";
    dismiss.textContent = words.dismiss;
    dismiss.addEventListener("click", function () {
      state.report = null;
      save();
      render();
    });
    parent.appendChild(dismiss);
  }

  // -- the page while entries wait -------------------------------------------------------------------------------
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes); // crypto.randomUUID needs a secure context; a LAN is plain HTTP
    return Array.prototype.map
      .call(bytes, function (b) {
        return ("0" + b.toString(16)).slice(-2);
      })
      .join("");
  }

  function setField(form, name, value) {
    var input = form.querySelector('input[name="' + name + '"]');
    if (input) {
      input.value = value;
    }
  }

  function live() {
    return document.getElementById("entry-live");
  }

  /** After ``item`` went into the outbox: every form of the page is out of date but the next entry the player
   * can make without the server, armed with the next sequence number and a new key. */
  function advance(form, item) {
    var scope = live();
    if (!scope) {
      return;
    }
    var next = String(Number(field(item.fields, "expected_seq")) + 1);
    var kind = item.kind;
    var follow = null;
    var over = "";
    if (kind === "game-result") {
      form.reset();
      over = keepScore(form, item.fields);
      follow = over ? null : form;
    } else if ((kind === "roll" || kind === "opening-roll") && !field(item.fields, "digital")) {
      var template = scope.querySelector("#entry-offline-play");
      var dice = [Number(field(item.fields, "die1")), Number(field(item.fields, "die2"))];
      var opener = dice[0] > dice[1] ? "0" : "1"; // the opening roll's winner plays it: the higher die's side
      if (kind === "opening-roll") {
        var held = (template && template.getAttribute("data-sides")) || "";
        template = dice[0] !== dice[1] && has(held, opener) ? template : null;
        dice.sort(function (a, b) {
          return b - a; // said as the engine says it: the higher die first
        });
      }
      if (template) {
        follow = document.createElement("form");
        follow.method = "post";
        follow.setAttribute("action", form.getAttribute("action"));
        follow.className = "entry-form play-form";
        follow.setAttribute("data-entry", template.getAttribute("data-entry"));
        follow.setAttribute("data-pass", template.getAttribute("data-pass"));
        form.querySelectorAll('input[type="hidden"]').forEach(function (hidden) {
          follow.appendChild(hidden.cloneNode(true));
        });
        setField(follow, "kind", "play");
        if (kind === "opening-roll") {
          var side = document.createElement("input"); // the opening roll's form names no side: its winner plays
          side.type = "hidden";
          side.name = "side";
          side.value = opener;
          follow.appendChild(side);
        }
        follow.appendChild(template.content.cloneNode(true));
        var label = follow.querySelector("label");
        label.textContent = fill(label.textContent, { dice: dice[0] + "-" + dice[1] });
        form.after(follow);
        form.hidden = true;
      }
    }
    scope.classList.add("is-out-of-date");
    scope.querySelectorAll(".entry-error").forEach(function (error) {
      error.remove(); // a refusal of an earlier entry: the page has moved on from it, on the phone
    });
    scope.querySelectorAll("form").forEach(function (each) {
      var armed = each === follow;
      each.querySelectorAll("button, input, select, textarea").forEach(function (control) {
        control.disabled = !armed && control.type !== "hidden";
      });
    });
    if (follow) {
      setField(follow, "expected_seq", next);
      setField(follow, "idempotency_key", newKey());
      follow.removeAttribute("data-sent");
      follow.classList.add("is-next");
    }
    var prompt = scope.querySelector("#entry-prompt");
    if (prompt) {
      prompt.textContent = over || (follow ? words.nextPrompt : words.waitPrompt);
    }
  }

  // -- the score of the results waiting on the phone (a scoresheet match) -----------------------------------------
  function has(flags, name) {
    return (" " + flags + " ").indexOf(" " + name + " ") >= 0;
  }

  /** The scoresheet match after the game result ``fields`` (winner, result, cube), from the match as the result
   * form keeps it (``data``: its data-score, data-length, data-crawford, data-game, data-casual and
   * data-cube-values, templates/entry/_live.html). Returns the same attributes moved on (score, crawford, game)
   * and what the page shows: whether the next game is the Crawford game or a post-Crawford one, whether the match
   * is over and who won it, the cube values the next game's result may have.
   *
   * A mirror of a rule of the engine (engine/match.py, MatchState._finish_game and GameState._game_result: the
   * points, the Crawford game, the match's end), the one rule restated outside engine/ (docs/ARCHITECTURE.md,
   * "Where logic lives"): the phone off the network has no engine to ask. A table of the engine's answers was
   * weighed instead: it needs a row per score the results on the phone can reach (up to 100 x 100 for a 99-point
   * match) on every render of the page. tests/web/browser/test_scoresheet_mirror.py pins the mirror: it runs this
   * function for every score of matches of 1 to 7 points (with and without the Crawford rule, casual, money) and
   * compares each step with MatchState after the same result; change both together. */
  function afterGame(data, fields) {
    var score = (data.score || "0 0").split(" ").map(Number);
    var length = Number(data.length || "0");
    var flags = data.crawford || "";
    var winner = field(fields, "winner") === "1" ? 1 : 0;
    var points = data.casual ? 1 : Number(field(fields, "result") || "1") * Number(field(fields, "cube") || "1");
    score[winner] += points;
    var played = has(flags, "played") || has(flags, "game");
    var over = length > 0 && Math.max(score[0], score[1]) >= length;
    var crawford = has(flags, "rule") && !played && !over && score.indexOf(length - 1) >= 0;
    return {
      score: score.join(" "),
      crawford: [has(flags, "rule") ? "rule" : "", crawford ? "game" : "", played ? "played" : ""].join(" "),
      game: String(Number(data.game || "0") + 1),
      crawfordGame: crawford,
      postCrawford: played && !crawford && !over,
      over: over,
      winner: over ? (score[0] >= length ? 0 : 1) : null,
      cubeValues: crawford || data.casual ? ["1"] : (data.cubeValues || "1").trim().split(" "),
    };
  }

  // For tests/web/browser/test_scoresheet_mirror.py, which calls it with every score: nothing on the page uses it.
  window.bgmatchScoresheet = { afterGame: afterGame };

  /** The result form (templates/entry/_live.html, form.result-form) moved on past the game result in ``fields``
   * (afterGame: the server's rule), and the page's header showing the score marked as not sent yet. Returns what
   * to say when the result ends the match (the form is hidden: no game after it), else "". */
  function keepScore(form, fields) {
    var data = form.dataset;
    var next = afterGame(data, fields);
    data.score = next.score;
    data.crawford = next.crawford;
    data.game = next.game;
    var score = next.score.split(" ").map(Number);
    var scope = live();
    var shownPoints = scope.querySelectorAll(".entry-score .points");
    shownPoints.forEach(function (elt, side) {
      elt.textContent = String(score[side]);
    });
    var head = scope.querySelector(".entry-score");
    if (head && !head.querySelector(".score-unsent")) {
      var mark = document.createElement("p");
      mark.className = "score-unsent";
      mark.textContent = data.unsent;
      head.querySelector(".score").after(mark);
    }
    var meta = scope.querySelector(".entry-meta");
    if (meta) {
      badge(meta, "entry-game", next.over ? "" : "· " + fill(data.gameWords, { game: next.game }));
      badge(meta, "badge badge-crawford", next.crawfordGame ? data.crawfordBadge : "");
      badge(meta, "badge badge-post-crawford", next.postCrawford ? data.postCrawfordBadge : "");
    }
    var legend = form.querySelector("legend[data-legend]");
    if (legend) {
      legend.textContent = fill(legend.getAttribute("data-legend"), { game: next.game });
    }
    var hint = form.querySelector(".crawford-hint");
    if (next.crawfordGame && !hint) {
      hint = document.createElement("p");
      hint.className = "hint crawford-hint";
      hint.textContent = data.crawfordHint;
      form.querySelector(".entry-actions").before(hint);
    } else if (!next.crawfordGame && hint) {
      hint.remove();
    }
    var cube = form.querySelector("select[name=cube]");
    if (cube) {
      cube.textContent = "";
      next.cubeValues.forEach(function (value) {
        cube.appendChild(new Option(value, value));
      });
    }
    if (!next.over) {
      return "";
    }
    form.hidden = true;
    var names = scope.querySelectorAll(".entry-score .who");
    return fill(data.over, { name: text(names[next.winner]), score: next.score.replace(" ", "-") });
  }

  /** The meta line's element of class ``className`` with ``words``: made when missing, removed when empty. */
  function badge(meta, className, words) {
    var elt = meta.querySelector("." + className.split(" ").pop());
    if (!words) {
      if (elt) {
        elt.remove();
      }
      return;
    }
    if (!elt) {
      elt = document.createElement("span");
      elt.className = className;
      var before = meta.querySelectorAll(".entry-game, .badge");
      if (before.length) {
        before[before.length - 1].after(elt);
      } else {
        meta.appendChild(elt);
      }
    }
    elt.textContent = words;
  }

  // -- sending --------------------------------------------------------------------------------------------------
  function schedule() {
    if (timer !== null) {
      return;
    }
    var delay = RETRY[Math.min(failures - 1, RETRY.length - 1)] || RETRY[0];
    timer = window.setTimeout(function () {
      timer = null;
      pump();
    }, delay);
  }

  function post(item) {
    var controller = window.AbortController ? new AbortController() : null;
    var watch = controller
      ? window.setTimeout(function () {
          controller.abort();
        }, TIMEOUT)
      : null;
    var options = {
      method: "POST",
      body: new URLSearchParams(item.fields),
      credentials: "same-origin",
      redirect: "follow",
      headers: { "X-Requested-With": "entry-outbox" },
    };
    if (controller) {
      options.signal = controller.signal;
    }
    return window.fetch(item.url || pageUrl, options).finally(function () {
      if (watch !== null) {
        window.clearTimeout(watch);
      }
    });
  }

  function pump() {
    if (sending || !state.items.length) {
      return;
    }
    sending = true;
    var item = state.items[0];
    post(item)
      .then(function (response) {
        if (response.status >= 500 || response.status === 429) {
          return down; // the server is busy or restarting: the entry waits, as for a dropped connection
        }
        var back = response.ok && response.redirected && new URL(response.url).pathname === pageUrl;
        return response.text().then(function (html) {
          // Recorded: the 303 back to the page, followed. Anything else is a refusal, with its page.
          return back ? recorded.bind(null, item, html) : refused.bind(null, item, html);
        });
      })
      .then(
        function (next) {
          next();
        },
        function () {
          down(); // no answer, or cut off half-way (sending it again is safe)
        }
      );
  }

  function down() {
    sending = false;
    failures += 1;
    if (!state.waited && pending && state.items.length === 1) {
      advance(pending, state.items[0]); // the first entry that could not go: the page moves on, on the phone
    }
    state.waited = true;
    save();
    render();
    schedule();
  }

  function recorded(item, html) {
    sending = false;
    failures = 0;
    state.items.shift();
    if (state.waited) {
      state.sent.push(item.label);
    }
    if (state.items.length) {
      save();
      render();
      pump();
      return;
    }
    if (state.waited) {
      state.report = { sent: state.sent, refused: null, dropped: [] };
    }
    state.sent = [];
    state.waited = false;
    save();
    show(html); // the page as it is now, as the recorded form's redirect would show it
    render();
  }

  /** The live part of ``html`` (a page the server answered) in place of the page's own, or the page loaded again. */
  function show(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("entry-live");
    var current = live();
    if (fresh && current && window.htmx) {
      window.htmx.swap(current, fresh.outerHTML, { swapStyle: "outerHTML" });
    } else {
      window.location.assign(pageUrl);
    }
  }

  function refused(item, html) {
    sending = false;
    failures = 0;
    var page = new DOMParser().parseFromString(html, "text/html");
    var error = page.querySelector(".entry-error") || page.querySelector("main p");
    var reason = error ? error.textContent.replace(/\s+/g, " ").trim() : words.refusedUnknown;
    var dropped = state.items.slice(1).map(function (each) {
      return each.label;
    });
    // Refused at once, the page's own error says why (as without this script); after a wait, or a panel's answer
    // (its refusal is a page of its own, not the entry page's), the outbox says which entry it was and what became
    // of the others.
    state.report = state.waited || item.url
      ? { sent: state.sent, refused: { label: item.label, reason: reason }, dropped: dropped }
      : null;
    state.items = [];
    state.sent = [];
    state.waited = false;
    save();
    show(html);
    var repeated = state.report && live() ? live().querySelector(".entry-error") : null;
    if (repeated) {
      repeated.remove(); // the outbox says it, naming the entry
    }
    render();
  }

  // -- the page's forms ------------------------------------------------------------------------------------------
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      var panel = form.closest ? form.closest(".entry-panel") : null;
      if (!form.classList || !form.classList.contains("entry-form") || (form.action !== pageHref && !panel)) {
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation(); // this script sends it (entry-board.js's own once-only guard stands aside)
      if (form.getAttribute("data-sent")) {
        return;
      }
      form.setAttribute("data-sent", "1");
      pending = form;
      var fields = [];
      var button = event.submitter || null;
      new FormData(form, button).forEach(function (value, name) {
        fields.push([name, String(value)]);
      });
      if (button && button.name && !field(fields, button.name)) {
        fields.push([button.name, button.value]); // a browser whose FormData leaves out the button pressed
      }
      var item = { fields: fields, kind: field(fields, "kind"), label: describe(form, fields, button) };
      if (form.action !== pageHref) {
        item.url = new URL(form.action).pathname; // a panel's answer (confirm, dispute): it too leads to the page
      }
      form.querySelectorAll("button").forEach(function (button) {
        button.disabled = true;
      });
      form.classList.remove("is-next");
      if (state.report) {
        state.report = null; // a new entry: the last report has been read
      }
      state.items.push(item);
      save();
      if (state.waited || failures > 0 || state.items.length > 1) {
        advance(form, item);
      }
      render();
      pump();
    },
    true
  );

  // No polling of the live part while entries wait: what it would show is behind what the phone holds.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.id === "entry-live" && state.items.length) {
      event.preventDefault();
    }
  });

  window.addEventListener("online", function () {
    if (timer !== null) {
      window.clearTimeout(timer);
      timer = null;
    }
    pump();
  });

  // Entries kept from before a reload: the page's forms are behind them until they are sent. Whether they waited
  // for the connection is as it was kept: an entry sent on the network from a page closed before the answer came
  // goes again quietly (the server answers its key as the first time), and is not said to have been sent late.
  if (state.items.length) {
    var scope = live();
    if (scope) {
      scope.classList.add("is-out-of-date");
      scope.querySelectorAll("form button, form input, form select, form textarea").forEach(function (control) {
        control.disabled = control.type !== "hidden";
      });
      var over = "";
      var form = scope.querySelector("form.result-form");
      var shown = form ? form.querySelector('input[name="expected_seq"]') : null;
      var seq = shown ? Number(shown.value) : 0; // the entries kept before it were recorded (the page shows them)
      state.items.forEach(function (item) {
        if (form && item.kind === "game-result" && Number(field(item.fields, "expected_seq")) >= seq && !over) {
          over = keepScore(form, item.fields); // not recorded yet: the score with it, as on the phone before
        }
      });
      var prompt = scope.querySelector("#entry-prompt");
      if (prompt) {
        prompt.textContent = over || words.waitPrompt;
      }
    }
  }
  render();
  pump();
})();
