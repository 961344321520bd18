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
