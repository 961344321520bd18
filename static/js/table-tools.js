// A played table's page (templates/play/table.html). The board is replaced as the table
// moves on (htmx), so everything here listens on the document and reads the board afresh.
(function () {
  "use strict";

  // The button that copies the invitation link: hidden until this script shows it (without
  // the script, or without the clipboard, the link's field is there to copy by hand).
  function showCopyButtons() {
    if (!navigator.clipboard) return;
    document.querySelectorAll("button[data-copy]").forEach((button) => {
      button.hidden = false;
    });
  }

  function say(button, text) {
    const status = button.parentElement.querySelector(".copy-status");
    if (status) status.textContent = text;
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-copy]");
    if (!button) return;
    const field = document.getElementById(button.dataset.copy);
    try {
      await navigator.clipboard.writeText(field.value);
      say(button, button.dataset.copied);
    } catch {
      // Refused (an insecure page, a denied permission): select it for a copy by hand.
      field.focus();
      field.select();
      say(button, button.dataset.copyFailed);
    }
  });

  // A <details data-keep-open="key"> (the round's earlier events, the question before
  // resigning) stays open, or closed, as the person left it when the board is replaced by the
  // next move's.
  const open = new Set();
  document.addEventListener(
    "toggle",
    (event) => {
      const details = event.target;
      if (!(details instanceof HTMLDetailsElement) || !details.dataset.keepOpen) return;
      if (details.open) open.add(details.dataset.keepOpen);
      else open.delete(details.dataset.keepOpen);
    },
    true,
  );
  function restore() {
    document.querySelectorAll("details[data-keep-open]").forEach((details) => {
      details.open = open.has(details.dataset.keepOpen);
    });
    showCopyButtons();
  }

  document.addEventListener("DOMContentLoaded", restore);
  document.addEventListener("htmx:afterSwap", restore);
})();

// What changed on the board, for a screen reader. Each board says what happened since the one
// the page showed before (data-news, written by the server from the round's log as this seat
// may see it); it is added to a polite live region outside the board, which is replaced whole
// at every version (a live region swapped in with its text already in it is not read out).
(function () {
  "use strict";
  const SAID = 3; // announcements kept in the live region (older ones are dropped silently)

  document.addEventListener("htmx:afterSettle", (event) => {
    const board = event.target;
    const region = document.getElementById("board-news");
    const news = board.id === "board" ? board.querySelector("[data-news]") : null;
    if (!news || !region) return;
    const line = document.createElement("p");
    line.textContent = news.textContent.trim();
    region.append(line);
    while (region.children.length > SAID) region.firstElementChild.remove();
  });
})();

// An answer to one's own action (a move, the next round, fast-forward) that arrives after a
// pushed board (a bot's move) replaced the board its form was in: htmx would swap it into that
// board, no longer on the page, and it would be lost, refusal and all. It goes into the board
// shown instead.
(function () {
  "use strict";
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    if (!target || target.id !== "board" || target.isConnected) return;
    const shown = document.getElementById("board");
    if (shown) event.detail.target = shown;
  });
})();

// Why one's own action was refused. The board answering it says why (data-refusal); the next
// board pushed replaces the board whole, which wiped the reason before anyone could read it.
// It is moved out of the board into a region of its own (#board-refusal), where it stays until
// the person's next action is answered.
(function () {
  "use strict";
  document.addEventListener("htmx:afterSettle", (event) => {
    const board = event.target;
    const region = document.getElementById("board-refusal");
    const asker = event.detail.requestConfig ? event.detail.requestConfig.elt : null;
    if (board.id !== "board" || !region || !asker || asker.id === "board") return;
    region.replaceChildren(...board.querySelectorAll("[data-refusal]"));
  });
})();

// The board for the keyboard. The board is replaced whole at every version (the person's
// move, or another's pushed by live.js), which dropped the focus to the top of the page.
// Every element one may act on carries a stable key (data-focus: a card's code, "draw",
// "status"...). After a swap the focus goes:
// - after one's own action (a move, the next round, fast-forward): to the next action;
// - after a pushed board, if something on the board had the focus: back to it, found by its
//   key, unless that was the status line where one waits for one's turn and the turn has
//   come; else to the next action. Focus elsewhere on the page, or nowhere, is left alone.
// The next action is why one's own action was refused if it was, the round's results, one's
// first legal move (a turned-up Queen's suits, a card, drawing, passing), fast-forward, "I'm back",
// and otherwise the status line that says whose turn it is. The page scrolls to the new
// focus only for someone using the keyboard: a tap on a phone leaves the page where it was.
(function () {
  "use strict";
  const NEXT = [
    "[data-focus=round-end]",
    ".my-hand [data-focus]:not(:disabled)",
    "[data-focus=fast-forward]",
    "[data-focus=back]",
    "[data-focus=status]",
    "[data-focus=waiting]",
  ];
  let before = null;
  let keyboard = false; // whether the person's last input was a key (not a tap or a click)
  document.addEventListener("keydown", () => (keyboard = true), true);
  document.addEventListener("pointerdown", () => (keyboard = false), true);

  function nextAction(board, own) {
    // Why one's own action was refused is outside the board (a pushed board leaves it there).
    const refusal = own ? document.querySelector("#board-refusal [data-focus=error]") : null;
    if (refusal) return refusal;
    for (const selector of NEXT) {
      const element = board.querySelector(selector);
      if (element) return element;
    }
    return null;
  }

  function focusOn(element) {
    // A Queen's suits are inside her <details>: open it, as the person had it.
    const closed = element.closest("details:not([open])");
    if (closed && element.parentElement !== closed) closed.open = true;
    element.focus({ preventScroll: !keyboard });
  }

  document.addEventListener("htmx:beforeSwap", (event) => {
    const board = event.detail.target;
    if (!board || board.id !== "board") return;
    const active = document.activeElement;
    const keyed = active && board.contains(active) ? active.closest("[data-focus]") : null;
    before = {
      // A move, the next round...: a request made from inside the board, not its own fetch.
      own: Boolean(event.detail.requestConfig) && event.detail.requestConfig.elt !== board,
      onBoard: Boolean(active) && board.contains(active),
      key: keyed ? keyed.dataset.focus : null,
    };
  });

  document.addEventListener("htmx:afterSettle", (event) => {
    const board = event.target;
    if (board.id !== "board" || !before) return;
    const was = before;
    before = null;
    if (!was.own && !was.onBoard) return;
    const next = nextAction(board, was.own);
    let target = next;
    if (!was.own && was.key) {
      const same = board.querySelector(`[data-focus="${CSS.escape(was.key)}"]`);
      if (same && !same.disabled && !(was.key === "status" && next !== same)) target = same;
    } else if (!was.own && board.contains(document.activeElement)) {
      return; // htmx put it back itself (an element with the same id)
    }
    if (target) focusOn(target);
  });
})();
