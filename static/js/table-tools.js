// A played table's page (templates/play/table.html). The board is replaced as the table
// moves on (htmx), so everything here listens on the document and reads the board afresh.
(function () {
  "use strict";

  // The round's earlier events (a <details data-keep-open>) stay open, or closed, as the
  // reader left them when the board is replaced by the next move's.
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
  }

  document.addEventListener("DOMContentLoaded", restore);
  document.addEventListener("htmx:afterSwap", restore);
})();
