{% load static %}// The service worker of 101: a score sheet keeps working when a club room loses the network.
// - A sheet (/matches/<id>/) comes from the network when there is one, and a copy of it is
//   kept; without a network (or after PATIENCE ms of waiting) the copy is shown.
// - The site's styles and scripts too: from the network (or the browser's own cache of it),
//   else from the copy.
// - Any other page, without a network, is the offline page (kept when this worker installs).
// Rounds entered offline are kept by the page (static/js/outbox.js), not here.
// - A web push (notify/channels/push.py: {title, body, url, tag}) is shown as a notification;
//   a tap on it opens its page (or the tab that has it open).
"use strict";

const PAGES = "101-pages";
const ASSETS = "101-assets";
const STATIC = "{% get_static_prefix %}";
const OFFLINE = "{% url 'games:offline' %}";
const SHEET = /^\/matches\/\d+\/$/;
const PATIENCE = 4000;
const ICON = "{% static 'img/icon-192.png' %}";
const RENEW = "{% url 'notify:push_renew' %}";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(PAGES).then((cache) => cache.add(OFFLINE)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC)) {
    event.respondWith(networkOrCopy(request));
  } else if (SHEET.test(url.pathname) && !request.headers.has("HX-Request")) {
    event.respondWith(networkFirst(request, url.pathname));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(offlinePage));
  }
});

function networkOrCopy(request) {
  return fetch(request)
    .then(async (response) => {
      if (response.ok) {
        const cache = await caches.open(ASSETS);
        await cache.put(request, response.clone());
      }
      return response;
    })
    .catch(() => caches.match(request, { ignoreSearch: true }).then((copy) => copy || Response.error()));
}

function networkFirst(request, path) {
  const fresh = fetch(request).then(async (response) => {
    if (response.ok && response.type === "basic") {
      const cache = await caches.open(PAGES);
      await cache.put(path, response.clone());
    }
    return response;
  });
  const late = new Promise((resolve) => setTimeout(resolve, PATIENCE));
  const copy = () => caches.match(path, { cacheName: PAGES });
  return Promise.race([fresh, late.then(copy)])
    .then((response) => response || fresh)
    .catch(() => copy().then((response) => response || offlinePage()));
}

function offlinePage() {
  return caches.match(OFFLINE, { cacheName: PAGES }).then(
    (page) => page || new Response("", { status: 503, statusText: "Offline" }),
  );
}

self.addEventListener("push", (event) => {
  let message = {};
  if (event.data) {
    try {
      message = event.data.json();
    } catch {
      message = { body: event.data.text() };
    }
  }
  event.waitUntil(
    self.registration.showNotification(message.title || "101", {
      body: message.body || "",
      icon: ICON,
      tag: message.tag || "",
      data: { url: message.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});

// The push service replaced this browser's subscription (it expired, or its keys were
// renewed): the new one is passed on with the old endpoint, which says whose it was (no
// session or CSRF token reaches a service worker).
self.addEventListener("pushsubscriptionchange", (event) => {
  const old = event.oldSubscription;
  if (!old) return;
  const renewed = event.newSubscription
    ? Promise.resolve(event.newSubscription)
    : self.registration.pushManager.subscribe(old.options);
  event.waitUntil(
    renewed
      .then((subscription) =>
        fetch(RENEW, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ old_endpoint: old.endpoint, subscription: subscription.toJSON() }),
        }),
      )
      .catch(() => {}),
  );
});
