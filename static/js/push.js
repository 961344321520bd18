// Web push in this browser (templates/notify/_push_panel.html): "Turn on" asks the person's
// permission, subscribes at the browser's push service with the site's public key and posts
// the subscription to the site; "Turn off" tells the site and drops the subscription. The
// service worker that shows the pushes is the site's own (templates/games/sw.js).
(function () {
  "use strict";
  const panel = document.querySelector("[data-push]");
  if (!panel) return;
  const state = panel.querySelector("[data-push-state]");
  const on = panel.querySelector("[data-push-on]");
  const off = panel.querySelector("[data-push-off]");
  const texts = panel.querySelector("template[data-push-texts]").content;
  const known = JSON.parse(document.getElementById("push-endpoints").textContent);

  function say(key, detail) {
    const text = texts.querySelector(`[data-text="${key}"]`).textContent;
    state.textContent = detail ? `${text} ${detail}` : text;
  }

  if (!("serviceWorker" in navigator && "PushManager" in window && "Notification" in window)) {
    say("unsupported");
    return;
  }

  // The key as the push service takes it: the bytes of the base64url the site gives.
  function keyBytes(base64url) {
    const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4))
      .replace(/-/g, "+")
      .replace(/_/g, "/");
    return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  }

  function sameKey(subscription) {
    const key = subscription.options && subscription.options.applicationServerKey;
    if (!key) return true;
    const mine = keyBytes(panel.dataset.key);
    const theirs = new Uint8Array(key);
    return mine.length === theirs.length && mine.every((byte, index) => byte === theirs[index]);
  }

  function csrfToken() {
    return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      redirect: "error", // signed out meanwhile: the login page is no answer
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrfToken(),
      },
      body: JSON.stringify(body),
    });
  }

  async function error(response) {
    try {
      return (await response.json()).error || "";
    } catch {
      return "";
    }
  }

  function show(subscribed, key, detail) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    if (key) say(key, detail);
  }

  async function current() {
    const registration = await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    // Made with keys the site no longer has: no push would reach it.
    if (subscription && !sameKey(subscription)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    return { registration, subscription };
  }

  async function turnOn() {
    on.disabled = true;
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        show(false, "denied");
        return;
      }
      const { registration } = await current();
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(panel.dataset.key),
      });
      const response = await post(panel.dataset.subscribe, subscription.toJSON());
      if (response.status !== 201) {
        const why = await error(response);
        await subscription.unsubscribe();
        show(false, "failed", why);
        return;
      }
      show(true, "on");
      off.focus();
    } catch {
      show(false, "failed");
    } finally {
      on.disabled = false;
    }
  }

  async function turnOff() {
    off.disabled = true;
    try {
      const { subscription } = await current();
      if (subscription) {
        const response = await post(panel.dataset.unsubscribe, { endpoint: subscription.endpoint });
        if (!response.ok) {
          say("off-failed", await error(response));
          return;
        }
        await subscription.unsubscribe();
      }
      show(false, "off");
      on.focus();
    } catch {
      say("off-failed");
    } finally {
      off.disabled = false;
    }
  }

  on.addEventListener("click", turnOn);
  off.addEventListener("click", turnOff);
  if (Notification.permission === "denied") {
    say("denied");
    return;
  }
  current()
    .then(({ subscription }) => {
      // On only if the site knows this browser as this person's (it forgets a gone one).
      show(Boolean(subscription && known.includes(subscription.endpoint)));
    })
    .catch(() => say("unsupported"));
})();
