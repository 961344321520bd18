// The card grid of the round form: tapping a card adds it to (or removes it from) that
// player's cards; a card another player already has is dimmed. The text field stays the
// source of truth, so typing works the same and the form works without this script.
(function () {
  "use strict";

  function tokens(input) {
    return input.value.split(/[\s,]+/).filter(Boolean);
  }

  function matches(token, button) {
    const t = token.toUpperCase();
    return t === button.dataset.card || t === button.dataset.label.toUpperCase();
  }

  function sync(form) {
    const entries = Array.from(form.querySelectorAll("[data-entry]"));
    const held = entries.map((entry) => tokens(entry.querySelector("input[data-cards]")));
    entries.forEach((entry, index) => {
      entry.querySelectorAll("button[data-card]").forEach((button) => {
        const mine = held[index].some((t) => matches(t, button));
        const others = held.some((list, j) => j !== index && list.some((t) => matches(t, button)));
        button.setAttribute("aria-pressed", mine ? "true" : "false");
        button.classList.toggle("taken", others && !mine);
      });
    });
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-card]");
    if (!button) return;
    const entry = button.closest("[data-entry]");
    const input = entry.querySelector("input[data-cards]");
    const wentOut = entry.querySelector("input[type=radio][value=out]");
    let list = tokens(input);
    if (list.some((t) => matches(t, button))) {
      list = list.filter((t) => !matches(t, button));
    } else if (wentOut && wentOut.checked) {
      list = [button.dataset.label]; // one goes out with a single card
    } else {
      list.push(button.dataset.label);
    }
    input.value = list.join(" ");
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // The keyboard: the grid is one stop of Tab; the arrow keys move between its cards (a row is
  // a suit), Home and End go to the first and last, Space or Enter toggles the card.
  document.addEventListener("keydown", (event) => {
    const button = event.target.closest(".card-grid button[data-card]");
    if (!button) return;
    const cards = Array.from(button.parentElement.querySelectorAll("button[data-card]"));
    const row = cards.length / 4;
    const at = cards.indexOf(button);
    const steps = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: row, ArrowUp: -row };
    let next = null;
    if (event.key in steps) {
      next = at + steps[event.key];
    } else if (event.key === "Home") {
      next = 0;
    } else if (event.key === "End") {
      next = cards.length - 1;
    }
    if (next === null || next < 0 || next >= cards.length) return;
    event.preventDefault();
    button.tabIndex = -1;
    cards[next].tabIndex = 0;
    cards[next].focus();
  });

  function syncAll() {
    document.querySelectorAll("form[data-round-form]").forEach(sync);
  }
  document.addEventListener("input", syncAll);
  document.addEventListener("DOMContentLoaded", syncAll);
  document.addEventListener("htmx:afterSettle", syncAll);
})();

// After a round is saved, the sheet's status line (outside the part htmx swaps) says so, and a
// screen reader reads it out: a live region swapped in with its text already in it is not read.
// The keyboard's focus is moved by the page itself (autofocus on the next round's first field).
(function () {
  "use strict";
  const said = new WeakSet();
  function announce() {
    const status = document.getElementById("sheet-status");
    const saved = document.querySelector("#match-body .message.round-saved");
    if (!status || !saved || said.has(saved)) return;
    said.add(saved);
    status.textContent = "";
    setTimeout(() => {
      status.textContent = saved.textContent.trim();
    }, 100);
  }
  document.addEventListener("DOMContentLoaded", announce);
  document.addEventListener("htmx:afterSettle", announce);
})();

// The score sheet's players, when a name is wider than its column (four long names on a
// phone): their names are turned to read upwards, whole, rather than cut (.names-turned in
// site.css). Measured again when the sheet is swapped or the screen turns.
(function () {
  "use strict";
  function fit() {
    document.querySelectorAll("table.sheet").forEach((sheet) => {
      sheet.classList.remove("names-turned");
      const names = sheet.querySelectorAll("thead .pname");
      const cut = Array.from(names).some((name) => name.scrollWidth > name.clientWidth + 1);
      sheet.classList.toggle("names-turned", cut);
    });
  }
  let waiting = null;
  window.addEventListener("resize", () => {
    clearTimeout(waiting);
    waiting = setTimeout(fit, 150);
  });
  document.addEventListener("DOMContentLoaded", fit);
  document.addEventListener("htmx:afterSettle", fit);
})();

// The round clock on the projector: counts down to data-ends-at, then shows 0:00.
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll("[data-ends-at]").forEach((clock) => {
      const left = Math.max(0, Math.round((Date.parse(clock.dataset.endsAt) - Date.now()) / 1000));
      const minutes = Math.floor(left / 60);
      const seconds = String(left % 60).padStart(2, "0");
      clock.textContent = `${minutes}:${seconds}`;
      clock.classList.toggle("over", left === 0);
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
})();

// A button that changes something hard to undo asks first (data-confirm holds the question);
// without this script the action goes ahead as before.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-confirm]");
  if (button && !window.confirm(button.dataset.confirm)) {
    event.preventDefault();
  }
});

// Offline: the service worker keeps the sheets this phone opens (templates/games/sw.js).
// Logging out forgets them; the offline page lists those it has.
(function () {
  "use strict";
  const PAGES = "101-pages";
  const SHEET = /\/matches\/\d+\/$/;

  if ("serviceWorker" in navigator && document.body.dataset.serviceWorker) {
    navigator.serviceWorker.register(document.body.dataset.serviceWorker).catch(() => {});
  }

  document.addEventListener("submit", (event) => {
    if (event.target.matches("form[data-logout]") && "caches" in window) {
      caches.delete(PAGES);
    }
  });

  async function listKeptSheets(section) {
    const cache = await caches.open(PAGES);
    const list = section.querySelector("ul");
    for (const request of await cache.keys()) {
      if (!SHEET.test(new URL(request.url).pathname)) continue;
      const page = await (await cache.match(request)).text();
      const title = new DOMParser().parseFromString(page, "text/html").title;
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = request.url;
      link.textContent = title || request.url;
      item.append(link);
      list.append(item);
    }
    section.hidden = list.children.length === 0;
  }

  document.addEventListener("DOMContentLoaded", () => {
    const section = document.querySelector("[data-kept-sheets]");
    if (section && "caches" in window) listKeptSheets(section);
  });
})();

// A request the site refuses for a character it cannot store (config/middleware.py) answers
// 400 with the reason and where to show it (HX-Retarget, the page's main part). htmx swaps no
// 4xx answer by itself: this one is swapped, so that the visitor reads why nothing happened.
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  if (xhr.status === 400 && xhr.getResponseHeader("HX-Retarget")) {
    event.detail.shouldSwap = true;
  }
});

// While the database is away a request is answered 503 with a notice for the top of the page
// (config.views.database_unreachable): one notice at a time, gone once a request succeeds.
(function () {
  "use strict";
  function forget() {
    document.querySelectorAll("[data-database-away]").forEach((notice) => notice.remove());
  }
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.xhr.status === 503) forget();
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (xhr && xhr.status >= 200 && xhr.status < 300) forget();
  });
})();

// The browser's time zone, for pages to show times in it when the account has chosen none
// (notify/time_zones.py reads the `tz` cookie).
(function () {
  "use strict";
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return;
  }
  // An IANA name ("Europe/Samara") needs no escaping in a cookie; anything else is not sent.
  if (!/^[A-Za-z0-9_+\-/]+$/.test(zone)) {
    return;
  }
  const current = document.cookie.split("; ").find((pair) => pair.startsWith("tz="));
  if (current !== "tz=" + zone) {
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  }
})();
