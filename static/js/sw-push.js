/* The service worker's part for the calls (imported by the site's service worker with
 * importScripts("/static/js/sw-push.js")): a push from the server (tournaments/push.py) is a
 * JSON {title, body, url, tag}, shown as a notification; tapping it opens that page, or brings
 * forward a window already showing it. The tag is the call's, so a call pushed twice shows once. */
/* eslint-env serviceworker */
(function () {
  "use strict";

  self.addEventListener("push", function (event) {
    var data = {};
    try { data = event.data ? event.data.json() : {}; } catch (e) {
      data = { body: event.data ? event.data.text() : "" };
    }
    var title = data.title || "Crokinole";
    event.waitUntil(self.registration.showNotification(title, {
      body: data.body || "",
      tag: data.tag || undefined,
      renotify: Boolean(data.tag),
      data: { url: data.url || "/" }
    }));
  });

  self.addEventListener("notificationclick", function (event) {
    event.notification.close();
    var url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
    event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow ? self.clients.openWindow(url) : null;
    }));
  });
})();
