/*
 * The connection of a live page (the match page, a division's page, the venue display, "Your next match", the
 * entry page, the director's dashboard): each live part polls its URL through htmx (hx-trigger "every N s"). When a
 * poll fails (no network, no answer within 10 s, the server down or restarting), the page says "Reconnecting"
 * instead of going silent on what it last showed; polling goes on, and the first poll that is answered again
 * brings the part up to date (its ETag is behind, so the answer is the part as it is now) and the page says so
 * for a few seconds. When the browser says it is back online, every live part is polled at once.
 *
 * The words come from the page's meta tags (templates/_connection.html), so they are translated with the page. No inline script and no eval: pages run under a script-src 'self' policy.
 */
(function () {
  "use strict";

  function meta(name) {
    var tag = document.querySelector('meta[name="' + name + '"]');
    return tag ? tag.getAttribute("content") : "";
  }

  var words = { reconnecting: meta("bgmatch-reconnecting"), back: meta("bgmatch-reconnected") };
  var TIMEOUT = 10000; // ms: a poll with no answer by then has failed (a dropped Wi-Fi often answers nothing)
  var SHOWN = 4000; // ms the "up to date" words stay
  var status = null;
  var down = false;
  var fresh = new Date(); // when the page last had an answer: what it shows is as of then
  var hide = null;

  function polled(elt) {
    return !!(elt && elt.getAttribute && elt.getAttribute("hx-get") && /every/.test(elt.getAttribute("hx-trigger") || ""));
  }

  var zone = meta("bgmatch-zone"); // the event's time zone, as the page's own times are shown

  /** A time as the page's own are written: in the event's zone, on a 24-hour clock ("16:07:51"). */
  function clock(date) {
    var lang = document.documentElement.lang || undefined; // the page's language, not the browser's
    var options = { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" };
    try {
      return date.toLocaleTimeString(lang, zone ? Object.assign({ timeZone: zone }, options) : options);
    } catch (error) {
      return date.toLocaleTimeString(lang, options); // a zone this browser does not know: its own
    }
  }

  function show(text, reconnecting) {
    if (!status) {
      status = document.createElement("p");
      status.className = "connection-status";
      status.setAttribute("role", "status");
      status.setAttribute("aria-live", "polite");
      document.body.insertBefore(status, document.body.firstChild); // on top, off the page's controls
    }
    status.textContent = text;
    status.classList.toggle("is-down", reconnecting);
    status.hidden = false;
  }

  function failed() {
    down = true;
    if (hide !== null) {
      window.clearTimeout(hide);
      hide = null;
    }
    show(words.reconnecting.replace("%(time)s", clock(fresh)), true);
  }

  function answered() {
    fresh = new Date();
    if (!down) {
      return;
    }
    down = false;
    show(words.back, false);
    hide = window.setTimeout(function () {
      status.hidden = true;
      hide = null;
    }, SHOWN);
  }

  document.addEventListener("htmx:configRequest", function (event) {
    if (polled(event.detail.elt)) {
      event.detail.timeout = TIMEOUT;
    }
  });
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (polled(event.detail.elt)) {
        failed();
      }
    });
  });
  // Every answer, 304 included, passes htmx:beforeSwap on the live part while it is still in the page (a part
  // swapped by its answer is out of the document by htmx:afterRequest, whose event then reaches nobody).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (!polled(event.detail.elt) || !xhr) {
      return;
    }
    if (xhr.status >= 200 && xhr.status < 400) {
      answered();
    } else if (xhr.status >= 500) {
      failed(); // the server is down or restarting: the same words, polling goes on
    }
  });

  window.addEventListener("online", function () {
    if (!window.htmx) {
      return;
    }
    document.querySelectorAll("[hx-get][hx-trigger]").forEach(function (elt) {
      if (polled(elt) && !document.hidden) {
        window.htmx.ajax("GET", elt.getAttribute("hx-get"), { source: elt, target: elt, swap: "outerHTML" });
      }
    });
  });
})();
