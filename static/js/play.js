// A played table (templates/play/table.html). The page works without this script: the board
// shows the seconds left as the server rendered them, and every button posts a plain form.

// The move clock: counts the seconds down to data-deadline each second, and marks the last
// data-low of them. Both times are the server's epoch milliseconds; data-now (the server's
// time when it rendered the clock) corrects for a phone whose own clock is off. A board that
// htmx swaps in brings clocks of its own, bound as they arrive.
(function () {
  "use strict";
  const offsets = new WeakMap(); // clock -> the server's time less this browser's, in ms

  function bind(root) {
    root.querySelectorAll("[data-deadline]").forEach((clock) => {
      if (!offsets.has(clock)) offsets.set(clock, Number(clock.dataset.now) - Date.now());
    });
  }

  function tick() {
    bind(document); // a clock not seen yet is bound now
    document.querySelectorAll("[data-deadline]").forEach((clock) => {
      const now = Date.now() + offsets.get(clock);
      const left = Math.max(0, Math.ceil((Number(clock.dataset.deadline) - now) / 1000));
      const low = left <= Number(clock.dataset.low);
      clock.querySelector("[data-seconds]").textContent = String(left);
      clock.classList.toggle("low", low);
      // The hand's line around the clock is marked with it.
      const line = clock.closest(".move-clock");
      if (line) line.classList.toggle("low", low);
    });
  }

  if (window.htmx) {
    htmx.onLoad(bind); // the page once, then every piece htmx swaps in
  } else {
    document.addEventListener("DOMContentLoaded", () => bind(document));
  }
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();
