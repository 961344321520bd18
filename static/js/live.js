// Live pages: a box with data-live-events="<url>" listens to the Server-Sent Events of what it
// shows (core/live.py). Each event carries the version the server now has; the page inside the
// box carries data-live-version, the version it shows. Whenever the server's is newer, the page
// is told ("live", its hx-trigger) to fetch itself again, rendered for this viewer, so nothing
// secret travels in an event. Not while a request of the page is under way (the viewer's own
// move, whose answer is the new page): the comparison is made again when it is answered and
// after every swap, so an event heard meanwhile is not lost.
// The browser reconnects by itself, naming the last version it heard (Last-Event-ID); a stream
// the server refused is opened again after a growing pause. The page's slow poll stays as the
// fallback for a browser whose stream is down.
(function () {
  "use strict";

  const MOST_PAUSE_MS = 30000;

  function connect(box, pause) {
    let heard = 0;
    const source = new EventSource(box.dataset.liveEvents);

    function check() {
      const page = box.querySelector("[data-live-version]");
      // A request of the page under way (the viewer's own move, marked htmx-request by htmx)
      // brings the new page in its answer; once it is swapped in, afterSettle compares again.
      if (box.querySelector(".htmx-request")) return;
      if (page && heard > Number(page.dataset.liveVersion) && window.htmx) {
        window.htmx.trigger(page, "live");
      }
    }

    source.addEventListener("version", (event) => {
      heard = Math.max(heard, Number(event.data));
      check();
    });
    source.addEventListener("open", () => {
      pause = 1000;
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED && document.body.contains(box)) {
        setTimeout(() => connect(box, Math.min(pause * 2, MOST_PAUSE_MS)), pause);
      }
    });
    box.addEventListener("htmx:afterSettle", check);
  }

  function start() {
    document.querySelectorAll("[data-live-events]").forEach((box) => {
      if (!box.dataset.liveConnected) {
        box.dataset.liveConnected = "1";
        connect(box, 1000);
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
