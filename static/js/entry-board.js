/*
 * The players' entry page (templates/entry/match.html), on top of a page that works without it:
 *
 * - Live part: htmx polls /play/match/<id>/live/ every 3 s; this script sends the ETag of what is shown as
 *   If-None-Match, so an unchanged match answers 304 and nothing is swapped; polling pauses in a hidden tab.
 * - Tap to move: the page embeds the legal plays as a tree of single-die steps (JSON in #entry-taps, built by
 *   games.entry.tap_tree). Tap a checker (a point of the board, or a "from" button), then one of the landing
 *   points offered for it: each tap moves one checker by one die, and only steps on the way to a legal play are
 *   offered. Undo takes back the last step. The play so far is written into the notation field, and a complete
 *   play is the engine's own notation, so "Submit" records exactly the legal play the taps describe.
 * - Each form is sent once: its buttons are disabled once it is submitted (the server's idempotency key makes a
 *   second request harmless anyway). The match's own forms are sent by static/js/entry-outbox.js, which keeps
 *   them on the phone while the network is down; this guard is for the panels' forms.
 *
 * No inline script and no eval: the page runs under a Content-Security-Policy of script-src 'self'.
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var BAR = 25;
  var WAITING = 26;
  var OFF = 0;
  var board = null; // the tap-to-move controller of the page's current play form

  // -- live part: conditional polling ---------------------------------------------------------------------------
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.id === "entry-live" && elt.getAttribute("data-etag")) {
      event.detail.headers["If-None-Match"] = elt.getAttribute("data-etag");
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.id === "entry-live" && document.hidden) {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:load", function (event) {
    if (event.detail.elt && event.detail.elt.id === "entry-live") {
      start(event.detail.elt);
    }
  });

  // -- each form once -------------------------------------------------------------------------------------------
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("entry-form")) {
      return;
    }
    if (form.getAttribute("data-sent")) {
      event.preventDefault();
      return;
    }
    form.setAttribute("data-sent", "1");
    // After the form data is taken (a disabled submit button would drop its own name and value).
    window.setTimeout(function () {
      Array.prototype.forEach.call(form.querySelectorAll("button"), function (button) {
        button.disabled = true;
      });
    }, 0);
  });

  // -- tap to move ----------------------------------------------------------------------------------------------
  function tapId(point) {
    return point === WAITING ? BAR : point; // checkers waiting to enter (Acey-Deucey) are tapped at the bar
  }

  function TapBoard(scope, data) {
    this.data = data;
    this.form = scope.querySelector("#play-form");
    this.text = scope.querySelector("#play-text");
    this.svg = scope.querySelector("#entry-board svg");
    this.controls = scope.querySelector("#tap-controls");
    this.status = scope.querySelector("#tap-status");
    this.buttons = scope.querySelector("#tap-buttons");
    this.undoButton = scope.querySelector("#tap-undo");
    this.clearButton = scope.querySelector("#tap-clear");
    this.marks = this.svg ? this.svg.querySelector(".tap-marks") : null;
    this.typed = this.text ? this.text.value : "";
    this.words = this.controls.dataset;
    this.reset();
  }

  TapBoard.prototype.reset = function () {
    this.path = [this.data.root];
    this.steps = [];
    this.counts = this.data.counts.slice();
    this.selected = null;
  };

  TapBoard.prototype.node = function () {
    return this.data.nodes[this.path[this.path.length - 1]];
  };

  TapBoard.prototype.moves = function () {
    var flat = this.node()[1];
    var out = [];
    for (var i = 0; i < flat.length; i += 4) {
      out.push({ src: flat[i], dst: flat[i + 1], die: flat[i + 2], child: flat[i + 3] });
    }
    return out;
  };

  TapBoard.prototype.sources = function () {
    var seen = [];
    this.moves().forEach(function (move) {
      var id = tapId(move.src);
      if (seen.indexOf(id) < 0) {
        seen.push(id);
      }
    });
    return seen;
  };

  TapBoard.prototype.targets = function (source) {
    var found = [];
    this.moves().forEach(function (move) {
      var already = found.some(function (other) { return other.dst === move.dst; });
      if (tapId(move.src) === source && !already) {
        found.push(move); // moves come smallest die first: a bear-off uses the smallest die that does it
      }
    });
    return found;
  };

  TapBoard.prototype.choose = function (id) {
    if (this.selected !== null) {
      var selected = this.selected;
      var move = this.targets(selected).filter(function (m) { return m.dst === id; })[0];
      if (move) {
        this.push(move);
        return;
      }
      if (id === selected) {
        this.selected = null;
        this.render();
        return;
      }
    }
    if (this.sources().indexOf(id) >= 0) {
      this.selected = id;
    }
    this.render();
  };

  TapBoard.prototype.push = function (move) {
    this.steps.push(move);
    this.path.push(move.child);
    this.counts[move.src] -= 1;
    this.counts[move.dst] += 1;
    this.selected = null;
    this.render();
  };

  TapBoard.prototype.undo = function () {
    var move = this.steps.pop();
    if (!move) {
      return;
    }
    this.path.pop();
    this.counts[move.src] += 1;
    this.counts[move.dst] -= 1;
    this.selected = null;
    this.render();
  };

  TapBoard.prototype.pointWord = function (id) {
    if (id === BAR) {
      return this.words.bar;
    }
    if (id === OFF) {
      return this.words.off;
    }
    return String(id);
  };

  TapBoard.prototype.stepsText = function () {
    return this.steps.map(function (m) {
      return (m.src >= BAR ? "bar" : String(m.src)) + "/" + (m.dst === OFF ? "off" : String(m.dst));
    }).join(" ");
  };

  TapBoard.prototype.render = function () {
    var self = this;
    var play = this.node()[0];
    var sources = play ? [] : this.sources();
    var targets = this.selected === null ? [] : this.targets(this.selected).map(function (m) { return m.dst; });
    if (this.svg) {
      Array.prototype.forEach.call(this.svg.querySelectorAll("rect.tap"), function (rect) {
        var id = Number(rect.getAttribute("data-tap"));
        rect.classList.toggle("is-source", sources.indexOf(id) >= 0 && id !== self.selected);
        rect.classList.toggle("is-selected", id === self.selected);
        rect.classList.toggle("is-target", targets.indexOf(id) >= 0);
      });
      this.drawMarks();
    }
    this.drawButtons(sources, targets);
    var left = this.moves().length ? this.leftDice() : "";
    if (play) {
      this.status.textContent = this.words.complete.replace("%(play)s", play);
      this.text.value = play;
    } else if (this.steps.length) {
      this.status.textContent = this.words.sofar.replace("%(steps)s", this.stepsText()).replace("%(dice)s", left);
      this.text.value = this.stepsText();
    } else {
      this.status.textContent = this.words.start.replace("%(dice)s", left);
      this.text.value = this.typed;
    }
    this.undoButton.disabled = this.clearButton.disabled = !this.steps.length;
  };

  TapBoard.prototype.leftDice = function () {
    var dice = this.data.dice[0] === this.data.dice[1]
      ? [this.data.dice[0], this.data.dice[0], this.data.dice[0], this.data.dice[0]]
      : this.data.dice.slice();
    this.steps.forEach(function (m) {
      var i = dice.indexOf(m.die);
      if (i >= 0) {
        dice.splice(i, 1);
      }
    });
    return dice.join(" ");
  };

  TapBoard.prototype.drawButtons = function (sources, targets) {
    var self = this;
    this.buttons.textContent = "";
    function add(label, id, kind, pressed) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.setAttribute("data-tap", String(id));
      button.className = "tap-button tap-" + kind;
      if (kind === "from") {
        button.setAttribute("aria-pressed", pressed ? "true" : "false");
      }
      self.buttons.appendChild(button);
    }
    sources.forEach(function (id) {
      add(self.words.from.replace("%(point)s", self.pointWord(id)), id, "from", id === self.selected);
    });
    targets.forEach(function (id) {
      add(self.words.to.replace("%(point)s", self.pointWord(id)), id, "to", false);
    });
  };

  TapBoard.prototype.drawMarks = function () {
    if (!this.marks) {
      return;
    }
    while (this.marks.firstChild) {
      this.marks.removeChild(this.marks.firstChild);
    }
    var start = this.data.counts;
    for (var point = 0; point <= WAITING; point += 1) {
      var change = this.counts[point] - start[point];
      if (!change) {
        continue;
      }
      var rect = this.svg.querySelector('rect.tap[data-tap="' + tapId(point) + '"]');
      if (!rect) {
        continue;
      }
      var x = Number(rect.getAttribute("x")) + Number(rect.getAttribute("width")) / 2;
      var y = Number(rect.getAttribute("y")) + Number(rect.getAttribute("height")) / 2;
      var back = document.createElementNS(SVG_NS, "rect");
      back.setAttribute("x", String(x - 16));
      back.setAttribute("y", String(y - 15));
      back.setAttribute("width", "32");
      back.setAttribute("height", "22");
      back.setAttribute("rx", "5");
      var text = document.createElementNS(SVG_NS, "text");
      text.setAttribute("x", String(x));
      text.setAttribute("y", String(y + 2));
      text.setAttribute("class", change > 0 ? "mark-to" : "mark-from");
      text.textContent = (change > 0 ? "+" : "\u2212") + Math.abs(change);
      this.marks.appendChild(back);
      this.marks.appendChild(text);
    }
  };

  function start(scope) {
    var script = scope.querySelector("#entry-taps");
    var controls = scope.querySelector("#tap-controls");
    if (!script || !controls) {
      board = null; // nothing to play on this version of the page
      return;
    }
    if (controls.getAttribute("data-ready")) {
      return; // already started (htmx announces the first content too)
    }
    var data;
    try {
      data = JSON.parse(script.textContent);
    } catch (error) {
      return; // the notation field still works
    }
    if (data.root === null || data.root === undefined) {
      return;
    }
    controls.setAttribute("data-ready", "1");
    controls.hidden = false;
    board = new TapBoard(scope, data);
    board.render();
    board.undoButton.addEventListener("click", function () { board.undo(); });
    board.clearButton.addEventListener("click", function () { board.reset(); board.render(); });
    board.text.addEventListener("input", function () {
      if (!board.steps.length) {
        board.typed = board.text.value;
      }
    });
  }

  document.addEventListener("click", function (event) {
    if (!board) {
      return;
    }
    var target = event.target.closest ? event.target.closest("[data-tap]") : null;
    if (!target || !(board.form.contains(target) || (board.svg && board.svg.contains(target)))) {
      return;
    }
    event.preventDefault();
    board.choose(Number(target.getAttribute("data-tap")));
  });

  var live = document.getElementById("entry-live");
  if (live) {
    start(live);
  }
})();
