/* "Notify me on this phone": asks the browser's permission, subscribes this phone to the push
 * service with the site's VAPID public key, and posts the subscription to the server, which then
 * pushes the entry's calls ("your match is on board 7") to it. The service worker shows them
 * (static/js/sw-push.js, imported by the site's service worker).
 *
 * The markup: <div data-push data-push-key=... data-follow-url=... data-stop-url=...
 * data-sw-url=...> with a csrf field, two hidden buttons ([data-push-follow], [data-push-stop])
 * and a [data-push-status] line; the buttons are shown here, so a browser without JavaScript
 * sees no button that does nothing. A browser without push (an iPhone outside a web app added to
 * the home screen) is told so, in the page's words. In a file of its own: the
 * Content-Security-Policy runs no inline script. */
(function () {
  "use strict";

  var box = document.querySelector("[data-push]");
  if (!box) return;
  var follow = box.querySelector("[data-push-follow]");
  var stop = box.querySelector("[data-push-stop]");
  var status = box.querySelector("[data-push-status]");
  var csrf = box.querySelector("input[name=csrfmiddlewaretoken]");

  function say(words) { if (status) status.textContent = words || ""; }

  var supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  if (!supported) { say(box.getAttribute("data-words-unsupported")); return; }

  /* The VAPID key as the push manager takes it: the bytes of its base64url text. */
  function keyBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  /* The site's service worker: the one already running this page, else the one the markup
   * names, else whichever registers within a few seconds. */
  function registration() {
    return navigator.serviceWorker.getRegistration().then(function (found) {
      if (found) return found;
      var url = box.getAttribute("data-sw-url");
      if (url) return navigator.serviceWorker.register(url);
      return Promise.race([
        navigator.serviceWorker.ready,
        new Promise(function (resolve, reject) {
          setTimeout(function () { reject(new Error("no service worker")); }, 5000);
        })
      ]);
    });
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) throw new Error(data.detail || response.statusText);
        return data;
      });
    });
  }

  function show(subscribed) {
    follow.hidden = subscribed;
    stop.hidden = !subscribed;
  }

  function failed(error) {
    say(box.getAttribute("data-words-failed") + " " + (error && error.message ? error.message : error));
  }

  follow.addEventListener("click", function () {
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { say(box.getAttribute("data-words-denied")); return null; }
      return registration().then(function (reg) {
        return reg.pushManager.getSubscription().then(function (existing) {
          return existing || reg.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: keyBytes(box.getAttribute("data-push-key"))
          });
        });
      }).then(function (subscription) {
        return post(box.getAttribute("data-follow-url"), subscription.toJSON());
      }).then(function (data) { show(true); say(data.detail); });
    }).catch(failed);
  });

  stop.addEventListener("click", function () {
    registration().then(function (reg) { return reg.pushManager.getSubscription(); })
      .then(function (subscription) {
        if (!subscription) { show(false); return null; }
        /* The phone may follow another entry too: the browser's subscription stays, the
         * server stops sending this entry's calls to it. */
        return post(box.getAttribute("data-stop-url"), { endpoint: subscription.endpoint })
          .then(function (data) { show(false); say(data.detail); });
      }).catch(failed);
  });

  show(false);
  if (Notification.permission === "granted") {
    navigator.serviceWorker.getRegistration().then(function (reg) {
      return reg ? reg.pushManager.getSubscription() : null;
    }).then(function (subscription) {
      /* Subscribed on this phone already: post it again (the keys may have changed). */
      if (subscription) {
        return post(box.getAttribute("data-follow-url"), subscription.toJSON())
          .then(function () { show(true); });
      }
      return null;
    }).catch(function () { show(false); });
  }
})();
