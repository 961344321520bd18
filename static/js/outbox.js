// Offline scoring on the score sheet. A round saved while the phone has no network (or while
// earlier such rounds are still waiting) is kept on the phone, in localStorage, and shown as
// "waiting to send"; when the network is back the rounds are sent in order to
// games:round_send. Each names the version of the sheet it was made on: the first, the
// version of the page; a later one, the version the round before it produced once accepted.
// A sheet that has moved on refuses the round and says why; the round stays here until it is
// put back in the form or discarded. Nothing is ever fitted onto a changed sheet. A round
// refused for being one too many in a short time (429, config.views.rate_limited), or while
// the site cannot reach its database (503, config.views.database_unreachable; 502 and 504 from
// the proxy while the site restarts), is not refused for good: it waits here and is sent again
// once the site says it may be.
// The service worker (templates/games/sw.js) keeps a copy of the sheet so that it opens
// offline; this script refreshes that copy after every save.
// A round half entered is kept too, in sessionStorage, as the person types: a reload (or a
// phone that drops the page) puts it back in the form. It is the draft of one round on one
// version of the sheet; saved, reset or kept to send, it is gone, and so is a draft of a sheet
// that has moved on (a round saved meanwhile: nothing is fitted onto a changed sheet).
(function () {
  "use strict";

  const PAGES = "101-pages";
  const ASSETS = "101-assets";
  const RETRY_MS = 20000;
  const LATER = [429, 502, 503, 504]; // not taken now, but to be sent again
  let sending = false;
  let limitedUntil = 0; // after a 429 or a 503: nothing is sent before then
  let lastStatus = ""; // said again when the sheet is swapped for a fresh one

  function outbox() {
    return document.getElementById("outbox");
  }

  function say(name, values) {
    const template = document.getElementById("outbox-texts");
    const text = template.content.querySelector(`[data-text="${name}"]`).textContent.trim();
    return text.replace(/%\((\w+)\)s/g, (_, key) => (values || {})[key]);
  }

  function storeKey(box) {
    return `101-outbox:${box.dataset.user}:${box.dataset.match}`;
  }

  function load(box) {
    try {
      return JSON.parse(localStorage.getItem(storeKey(box))) || [];
    } catch {
      return [];
    }
  }

  function store(box, items) {
    if (items.length) {
      localStorage.setItem(storeKey(box), JSON.stringify(items));
    } else {
      localStorage.removeItem(storeKey(box));
    }
  }

  // Rounds that will be sent by themselves: none once the first was refused (those after it
  // were made on top of it); a person looks at them, and the sheet goes on without them.
  function waiting(items) {
    return items.length > 0 && !items[0].problem;
  }

  function roundForm() {
    return document.querySelector("form[data-outbox]");
  }

  function typedSomething(form) {
    return Array.from(form.querySelectorAll("input[type=text], input[type=number]")).some(
      (input) => input.value.trim() !== "",
    );
  }

  function status(box, message) {
    lastStatus = message;
    let line = document.getElementById("outbox-status");
    if (!line) {
      line = document.createElement("p");
      line.id = "outbox-status";
      line.className = "message info";
      line.setAttribute("role", "status");
      box.parentElement.insertBefore(line, box);
    }
    line.textContent = message;
  }

  // --- keeping a round ---------------------------------------------------------------------

  function keep(box, form) {
    const items = load(box);
    const last = items[items.length - 1];
    const heading = form.querySelector("h2[data-number]");
    const entries = Array.from(form.querySelectorAll("[data-entry]"));
    const fields = typed(form);
    const item = {
      id: `${Date.now()}-${Math.random().toString(36).slice(2)}`,
      number: last ? last.number + 1 : Number(heading.dataset.number),
      madeOn: last ? last.madeOn : Number(form.elements.version.value),
      after: last ? last.id : null,
      seats: entries
        .map((entry) => entry.querySelector("input[data-cards]").name.match(/^s(\d+)-/)[1])
        .join(","),
      fields: fields,
      lines: entries.map(describe),
      problem: "",
    };
    items.push(item);
    store(box, items);
    form.reset();
    form.querySelector("input[data-cards]").dispatchEvent(new Event("input", { bubbles: true }));
    show(box);
    status(box, say("queued", { number: item.number }));
    send(box);
  }

  // What the form holds, as it is posted (the version with it), less what each post adds.
  function typed(form) {
    return Array.from(new FormData(form)).filter(
      ([name]) => name !== "csrfmiddlewaretoken" && name !== "action",
    );
  }

  // Put typed fields back in the form (not the version: the form's own is the sheet as it is
  // now), and let the card grid and the preview know.
  function fill(form, fields) {
    form.reset();
    fields.forEach(([name, value]) => {
      if (name === "version") return;
      const field = form.elements[name]; // an input, or the radio buttons of a kind
      if (field) field.value = value;
    });
    form.querySelector("input[data-cards]").dispatchEvent(new Event("input", { bubbles: true }));
  }

  // One player's part of a kept round, for people: "Anna: went out · Q♠".
  function describe(entry) {
    const kind = entry.querySelector("input[type=radio]:checked");
    const label = kind ? kind.closest("label").textContent.trim() : "";
    const cards = entry.querySelector("input[data-cards]").value.trim();
    const points = entry.querySelector("input[type=number]").value.trim();
    const what = kind && kind.value === "points" ? points : cards;
    return `${entry.dataset.name}: ${label}${what ? ` · ${what}` : ""}`;
  }

  // --- showing what is kept ----------------------------------------------------------------

  function show(box) {
    const items = load(box);
    const form = roundForm();
    if (form) {
      const heading = form.querySelector("h2[data-number]");
      const next = waiting(items) ? items[items.length - 1].number + 1 : heading.dataset.number;
      heading.textContent = say("round", { number: next });
      // The totals next to the names are the sheet's, before the kept rounds.
      form.classList.toggle("has-kept-rounds", waiting(items));
    }
    box.replaceChildren();
    box.hidden = items.length === 0;
    if (!items.length) return;
    const title = document.createElement("h2");
    title.id = "outbox-title";
    title.textContent = say("title");
    const list = document.createElement("ol");
    let blocked = false;
    items.forEach((item) => {
      list.append(row(box, item, blocked));
      blocked = blocked || Boolean(item.problem);
    });
    box.append(title, list);
  }

  function row(box, item, blocked) {
    const li = document.createElement("li");
    li.className = item.problem ? "kept problem" : "kept";
    const head = document.createElement("p");
    const name = document.createElement("strong");
    name.textContent = say("round", { number: item.number });
    let state = say("waiting");
    if (item.problem) state = say("not_sent", { reason: item.problem });
    else if (blocked) state = say("behind");
    head.append(name, ` — ${state}`);
    const lines = document.createElement("ul");
    item.lines.forEach((text) => {
      const line = document.createElement("li");
      line.textContent = text;
      lines.append(line);
    });
    li.append(head, lines);
    if (item.problem) {
      const actions = document.createElement("p");
      actions.className = "form-actions";
      actions.append(
        button(say("put_back"), "secondary", () => putBack(box, item.id)),
        button(say("discard"), "link danger", () => {
          if (window.confirm(say("discard_confirm"))) drop(box, item.id);
        }),
      );
      li.append(actions);
    }
    return li;
  }

  function button(text, className, action) {
    const element = document.createElement("button");
    element.type = "button";
    element.className = className;
    element.textContent = text;
    element.addEventListener("click", action);
    return element;
  }

  // Take a kept round out; the one entered after it was made on top of it, so it cannot be
  // sent as it is any more: it waits to be checked by a person.
  function drop(box, id) {
    const items = load(box);
    const at = items.findIndex((item) => item.id === id);
    if (at < 0) return null;
    const [gone] = items.splice(at, 1);
    const next = items[at];
    if (next && next.after === id) {
      next.after = null;
      next.problem = say("orphan");
    }
    store(box, items);
    show(box);
    return gone;
  }

  function putBack(box, id) {
    const form = roundForm();
    if (!form) return;
    const item = drop(box, id);
    if (!item) return;
    fill(form, item.fields);
    form.scrollIntoView();
  }

  // --- sending -----------------------------------------------------------------------------

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch {
      return "";
    }
  }

  async function send(box) {
    if (sending || !navigator.onLine || !load(box).length || Date.now() < limitedUntil) return;
    sending = true;
    const sent = [];
    let refused = false;
    let limited = "";
    try {
      let items = load(box);
      while (items.length && !items[0].problem) {
        const item = items[0];
        const data = new FormData();
        item.fields.forEach(([name, value]) => data.append(name, value));
        data.set("version", item.madeOn);
        data.set("seats", item.seats);
        data.set("action", "save");
        status(box, say("sending"));
        let response;
        try {
          response = await fetch(box.dataset.send, {
            method: "POST",
            body: data,
            headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
            credentials: "same-origin",
          });
        } catch {
          break; // still no network: try again later
        }
        const json = (response.headers.get("Content-Type") || "").includes("json");
        const answer = json ? await response.json() : null;
        if (LATER.includes(response.status)) {
          // Too many in a short time, or the site away for a moment: this round and those
          // after it wait, and go later.
          const seconds = (answer && answer.retry_after) || 60;
          limitedUntil = Date.now() + seconds * 1000;
          limited = say("later", { reason: (answer && answer.error) || "" }).trim();
          break;
        }
        items = load(box);
        if (!items.length || items[0].id !== item.id) break; // changed meanwhile
        if (response.ok && answer) {
          items.shift();
          const next = items[0];
          if (next && next.after === item.id) {
            next.after = null;
            next.madeOn = answer.version; // the sheet as it is with this round in it
          }
          sent.push(item.number);
        } else {
          items[0].problem = (answer && answer.error) || say("failed");
          refused = true;
        }
        store(box, items);
        show(box);
      }
    } finally {
      sending = false;
    }
    const done = sent.length ? say("sent", { rounds: sent.join(", ") }) : "";
    if (limited) status(box, `${done} ${limited}`.trim());
    else if (done) status(box, done);
    else if (!refused && document.getElementById("outbox-status") && load(box).length) {
      status(box, say("queued", { number: load(box)[0].number }));
    }
    if (sent.length || refused) refreshSheet();
  }

  // Show the sheet as it is now, unless a round is being typed (its save shows the sheet).
  function refreshSheet() {
    const form = roundForm();
    if (form && typedSomething(form)) return;
    htmx.ajax("GET", window.location.pathname, {
      target: "#match-body",
      swap: "outerHTML",
      select: "#match-body",
    });
  }

  // --- a copy of the sheet for the service worker --------------------------------------------

  // A page the service worker did not serve (the first visit) is not kept yet: keep it, and
  // the styles and scripts it uses. A page showing a message ("Round 3 deleted.") is kept
  // again without it: the message was for this visit. Files of an earlier deploy are not
  // needed any more.
  function keepCopy(first) {
    if (!("caches" in window) || !navigator.onLine) return;
    const assets = [
      ...Array.from(document.querySelectorAll("script[src]"), (script) => script.src),
      ...Array.from(document.querySelectorAll("link[rel~=stylesheet], link[rel~=icon]"), (l) => l.href),
    ];
    if (first) {
      caches
        .open(PAGES)
        .then((cache) => cache.add(window.location.pathname))
        .catch(() => {});
    }
    caches
      .open(ASSETS)
      .then(async (cache) => {
        for (const request of await cache.keys()) {
          if (!assets.includes(request.url)) await cache.delete(request);
        }
        if (first) await cache.addAll(assets);
      })
      .catch(() => {});
  }

  // --- a round half entered ------------------------------------------------------------------

  const DRAFTS = "101-draft:";

  // The draft's key: whose, which match, which round, on which version of the sheet.
  function draftKey(box, form) {
    const number = form.querySelector("h2[data-number]").dataset.number;
    return `${DRAFTS}${box.dataset.user}:${box.dataset.match}:${number}:${form.elements.version.value}`;
  }

  function keepDraft(box, form) {
    const fields = typed(form).filter(([name]) => name !== "version");
    const chosen = Array.from(form.querySelectorAll("input[type=radio]")).some(
      (radio) => radio.checked !== radio.defaultChecked,
    );
    try {
      if (chosen || typedSomething(form)) {
        sessionStorage.setItem(draftKey(box, form), JSON.stringify(fields));
      } else {
        sessionStorage.removeItem(draftKey(box, form));
      }
    } catch {} // storage full or refused: the form works as before
  }

  // The form as the sheet shows it now: its draft put back if nothing is typed in it yet, and
  // every other draft of this match (a round saved since, a sheet that moved on) forgotten.
  function restoreDraft(box, form) {
    const key = draftKey(box, form);
    const prefix = `${DRAFTS}${box.dataset.user}:${box.dataset.match}:`;
    let fields = null;
    try {
      for (const stored of Object.keys(sessionStorage)) {
        if (stored.startsWith(prefix) && stored !== key) sessionStorage.removeItem(stored);
      }
      fields = JSON.parse(sessionStorage.getItem(key));
    } catch {}
    if (typedSomething(form)) keepDraft(box, form); // a refused save, on the sheet as it is now
    else if (fields) fill(form, fields);
  }

  function forgetDraft(box, form) {
    try {
      sessionStorage.removeItem(draftKey(box, form));
    } catch {}
  }

  ["input", "change"].forEach((type) =>
    document.addEventListener(type, (event) => {
      const form = event.target.form;
      const box = outbox();
      if (box && form && form.matches("form[data-outbox]")) keepDraft(box, form);
    }),
  );

  // Reset (by the person, or once the round is kept to send): the draft goes with it.
  document.addEventListener(
    "reset",
    (event) => {
      const box = outbox();
      if (box && event.target.matches("form[data-outbox]")) forgetDraft(box, event.target);
    },
    true,
  );

  // --- wiring --------------------------------------------------------------------------------

  // A save while offline, or behind rounds still waiting, is kept instead of posted. This
  // listens before htmx (capture), which then never sees the submit.
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      const box = outbox();
      if (!box || !form.matches("form[data-outbox]")) return;
      const saving = !event.submitter || event.submitter.value === "save";
      if (navigator.onLine && (!saving || !waiting(load(box)))) return;
      event.preventDefault();
      event.stopPropagation();
      if (saving) keep(box, form);
      else status(box, say("preview_offline"));
    },
    true,
  );

  document.addEventListener("htmx:beforeRequest", (event) => {
    const form = event.detail.elt.closest && event.detail.elt.closest("form[data-outbox]");
    if (form && event.detail.elt === form) lastStatus = ""; // a save: the sheet says how it went
    // The live preview needs the server: without a network, say so instead of failing.
    if (form && event.detail.elt !== form && !navigator.onLine) {
      event.preventDefault();
      document.getElementById("preview").textContent = say("preview_offline");
    }
  });

  document.addEventListener("htmx:sendError", (event) => {
    // The network went while saving: the round is kept (if it did arrive after all, the
    // server answers "already saved" when it is sent again).
    const box = outbox();
    if (box && event.detail.elt.matches && event.detail.elt.matches("form[data-outbox]")) {
      keep(box, event.detail.elt);
    }
  });

  document.addEventListener("htmx:afterSettle", (event) => {
    const box = outbox();
    if (!box) return;
    show(box);
    if (lastStatus && !document.getElementById("outbox-status")) status(box, lastStatus);
    if (event.detail.target && event.detail.target.id === "match-body") {
      keepCopy(true);
      if (roundForm()) restoreDraft(box, roundForm());
    }
  });

  document.addEventListener("DOMContentLoaded", () => {
    const box = outbox();
    if (!box) return;
    show(box);
    if (roundForm()) restoreDraft(box, roundForm());
    const served = navigator.serviceWorker && navigator.serviceWorker.controller;
    keepCopy(!served || Boolean(document.querySelector("#match-body .messages")));
    send(box);
  });

  window.addEventListener("online", () => outbox() && send(outbox()));
  setInterval(() => outbox() && send(outbox()), RETRY_MS);
})();
