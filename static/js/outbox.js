/* The phone's outbox: a row saved while the network is down is kept on the phone and sent when
 * the network returns, once; so is the opponent's "Agree" that signs a row.
 *
 * Any form marked form[data-outbox] is kept this way: a row's form
 * (templates/scoring/cards/_fill_form.html), the opponent's validation on the card
 * (_validate_form.html) and the "Agree" of each row waiting on the private-link page
 * (_to_sign.html). Each lives in a row (the nearest [data-outbox-row], else the card's
 * .card-row) whose [data-outbox-notice] says how its entry stands. A form gets a fresh key on
 * every save (its idempotency_key field, sent with the entry). Saved with no network, or when the
 * request fails on the way, the entry (its address, its fields with the version it was based on,
 * its key) goes into IndexedDB, where it survives reloads and the browser being closed, and the
 * row says "saved on this phone, not yet sent" with what was typed left in the boxes (put back
 * into them when the page is opened again, from the network or from the copy the service worker
 * kept). It is sent on reconnect, on every visit, every few seconds while it waits, and by the
 * service worker through Background Sync where the browser has it; one send at a time across the
 * page and the worker (a Web Lock), so a key is never sent twice at once. The server writes a key
 * once (scoring/scorecards/offline.py): a send whose answer was lost and is sent again is
 * answered "already saved". On the server's answer the row is drawn again: saved, or refused
 * with its words (someone changed the row since: both versions side by side) and the typed
 * values kept; a refused entry leaves the outbox, it is never sent again by itself. A form
 * marked data-outbox-answer="words" (the private-link page, which shows no card row) is not
 * drawn again: the server's words go into its notice, and the form leaves (sent, it is done;
 * refused, the row must be read again before it is signed).
 *
 * The same file runs in the service worker (importScripts in templates/pwa/sw.js): there it only
 * defines self.CrokiOutbox, the store and the sending. A file of its own: the
 * Content-Security-Policy runs no inline script. */
(function (root) {
  "use strict";

  var DB_NAME = "crokinole-outbox";
  var STORE = "entries";
  var LOCK = "crokinole-outbox";
  var SYNC_TAG = "crokinole-outbox";
  var KEY_FIELD = "idempotency_key";
  var ROW_ERRORS = /class="row-errors"/;
  var RETRY_MS = 15000;

  // The store --------------------------------------------------------------------------------

  var opening = null;
  function database() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var open = root.indexedDB.open(DB_NAME, 1);
        open.onupgradeneeded = function () {
          open.result.createObjectStore(STORE, { keyPath: "key" });
        };
        open.onsuccess = function () { resolve(open.result); };
        open.onerror = function () { opening = null; reject(open.error); };
      });
    }
    return opening;
  }

  function read(work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var asked = work(db.transaction(STORE, "readonly").objectStore(STORE));
        asked.onsuccess = function () { resolve(asked.result); };
        asked.onerror = function () { reject(asked.error); };
      });
    });
  }

  function write(work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, "readwrite");
        work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function all() {
    return read(function (store) { return store.getAll(); }).then(function (found) {
      return (found || []).sort(function (a, b) { return a.saved_at - b.saved_at; });
    });
  }
  function get(key) { return read(function (store) { return store.get(key); }); }
  function put(entry) { return write(function (store) { store.put(entry); }); }
  function remove(key) { return write(function (store) { store.delete(key); }); }

  /* One sender at a time across the page's tabs and the service worker: a Web Lock where the
   * browser has them, else a queue in this page. */
  var chain = Promise.resolve();
  function exclusively(work) {
    var locks = root.navigator && root.navigator.locks;
    if (locks && locks.request) return locks.request(LOCK, work);
    var run = chain.then(work, work);
    chain = run.catch(function () {});
    return run;
  }

  // Sending ----------------------------------------------------------------------------------

  /* The words of a page the server answered with instead of the row (a refusal page). */
  function wordsOf(html) {
    var main = /<main[^>]*>([\s\S]*?)<\/main>/i.exec(html || "");
    var text = (main ? main[1] : "").replace(/<script[\s\S]*?<\/script>/gi, " ");
    text = text.replace(/<[^>]+>/g, " ").replace(/&amp;/g, "&").replace(/&#x27;|&#39;/g, "'");
    text = text.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">");
    return text.replace(/\s+/g, " ").trim().slice(0, 400);
  }

  /* Send one entry; how it went: "sent" (the row as the server has it now), "refused" (the
   * server's words, in the row when it drew it) or "retry" (no network, or the server could not
   * answer yet: the entry waits). */
  function send(entry, csrf) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (pair) {
      if (pair[0] === KEY_FIELD) return;
      body.append(pair[0], pair[0] === "csrfmiddlewaretoken" && csrf ? csrf : pair[1]);
    });
    body.append(KEY_FIELD, entry.key);
    return fetch(entry.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "HX-Request": "true",
        "X-CSRFToken": csrf || entry.csrf || "",
        "Idempotency-Key": entry.key
      },
      body: body
    }).then(function (response) {
      return response.text().then(function (html) {
        var status = response.status;
        if (status >= 500 || status === 408 || status === 429) {
          return { state: "retry", status: status };
        }
        if (response.redirected || !response.ok) {
          // Sent to the login page (signed out, link renewed) or refused with a page of words.
          return { state: "refused", status: status, html: "", words: wordsOf(html) };
        }
        return { state: ROW_ERRORS.test(html) ? "refused" : "sent", status: status, html: html };
      });
    }, function () {
      return { state: "retry", status: 0 };
    });
  }

  /* Send every entry still waiting, oldest first, one at a time; stop at the first that finds
   * no network. ``report(entry, result)`` hears each answer. A refused entry stays in the store,
   * marked refused (never sent again), until a page has shown it. */
  function flush(csrf, report) {
    return exclusively(function () {
      var outcome = { sent: 0, refused: 0, waiting: false };
      return all().then(function (entries) {
        var next = Promise.resolve();
        entries.forEach(function (listed) {
          if (listed.state !== "pending") return;
          next = next.then(function () {
            if (outcome.waiting) return null;
            // Read again: a newer save of the same row may have replaced it meanwhile.
            return get(listed.key).then(function (entry) {
              if (!entry || entry.state !== "pending") return null;
              return send(entry, csrf).then(function (result) {
                if (result.state === "retry") {
                  outcome.waiting = true;
                  return null;
                }
                outcome[result.state] += 1;
                var stored = result.state === "sent" ? remove(entry.key) : put(Object.assign(
                  {}, entry, { state: "refused", html: result.html, words: result.words || "" }
                ));
                return stored.then(function () { return report ? report(entry, result) : null; });
              });
            });
          });
        });
        return next.then(function () { return outcome; });
      });
    });
  }

  var api = {
    SYNC_TAG: SYNC_TAG, all: all, get: get, put: put, remove: remove, send: send, flush: flush
  };
  root.CrokiOutbox = api;
  if (typeof root.document === "undefined") return; // the service worker: no page to wire

  // The card page ----------------------------------------------------------------------------

  var FORMS = "form[data-outbox]";
  var waiting = {}; // the address of each row with an entry waiting -> its key
  var timer = null;

  function urlOf(form) { return form.getAttribute("hx-post") || form.getAttribute("action"); }

  function formFor(url) {
    var forms = document.querySelectorAll(FORMS);
    for (var i = 0; i < forms.length; i++) if (urlOf(forms[i]) === url) return forms[i];
    return null;
  }

  function rowOf(form) { return form.closest("[data-outbox-row]") || form.closest(".card-row"); }

  function noticeOf(form) {
    var row = rowOf(form);
    return row ? row.querySelector("[data-outbox-notice]") : null;
  }

  function newKey() {
    if (root.crypto && root.crypto.randomUUID) return root.crypto.randomUUID();
    var bytes = new Uint8Array(16);
    root.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  /* The page's own CSRF token (the one the page was drawn with), else none: the entry's own. */
  function liveCsrf() {
    try {
      var headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
      return headers["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function say(form, words, tone) {
    var notice = noticeOf(form);
    if (!notice) return;
    notice.textContent = words;
    notice.className = "outbox-notice " + (tone || "notice");
    notice.hidden = !words;
    var row = rowOf(form);
    if (row) row.classList.toggle("outbox-waiting", tone === "notice" && Boolean(words));
  }

  function sayWaiting(form) {
    say(form, form.getAttribute("data-word-waiting") || "Saved on this phone, not yet sent.");
  }

  function fieldsOf(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") pairs.push([name, value]);
    });
    return pairs;
  }

  /* Put an entry's values back into its form (the page drawn before it was typed). */
  function restore(form, entry) {
    var typed = {};
    entry.fields.forEach(function (pair) {
      (typed[pair[0]] = typed[pair[0]] || []).push(pair[1]);
    });
    Array.prototype.forEach.call(form.elements, function (box) {
      if (!box.name || box.name === "csrfmiddlewaretoken" || box.name === KEY_FIELD) return;
      var values = typed[box.name];
      if (box.type === "radio" || box.type === "checkbox") {
        box.checked = Boolean(values && values.indexOf(box.value) >= 0);
      } else if (values && box.tagName !== "BUTTON") {
        box.value = values[0];
      }
    });
    var details = form.closest("details");
    if (details) details.open = true;
  }

  /* What the server's answer (a card's row) says: its refusal, else its notice. */
  function answerWords(html) {
    var holder = document.createElement("div");
    holder.innerHTML = (html || "").trim();
    var said = holder.querySelector(".row-errors") ||
      holder.querySelector("p.ok[role=status], p.notice[role=status]:not([data-outbox-notice])");
    return said ? said.textContent.replace(/\s+/g, " ").trim() : "";
  }

  /* A form whose page shows no card row: the answer's words in its notice, and the form gone. */
  function answerInWords(form, result) {
    var words = (result.html && answerWords(result.html)) || result.words || "";
    form.hidden = true;
    if (result.state === "sent") {
      say(form, words, "ok");
    } else {
      var prefix = form.getAttribute("data-word-not-sent") || "Not sent:";
      say(form, prefix + " " + words, "row-errors");
    }
  }

  /* Draw the row again from the server's answer; without one (a page of words instead), keep
   * the typed values and say the words in the row. */
  function redraw(form, result) {
    var row = rowOf(form);
    if (!row) return;
    if (form.getAttribute("data-outbox-answer") === "words") {
      answerInWords(form, result);
      return;
    }
    if (result.html) {
      var holder = document.createElement("div");
      holder.innerHTML = result.html.trim();
      var fresh = holder.querySelector(".card-row");
      if (fresh) {
        row.replaceWith(fresh);
        if (root.htmx) root.htmx.process(fresh);
        return;
      }
    }
    var prefix = form.getAttribute("data-word-not-sent") || "Not sent:";
    say(form, prefix + " " + (result.words || ""), "row-errors");
  }

  /* The other tabs of the site on this phone hear how this tab's sends went. */
  var tabs = root.BroadcastChannel ? new root.BroadcastChannel(LOCK) : null;

  /* How an entry went, from this page's send, another tab's or the service worker's. */
  function shown(entry, result, heard) {
    if (result.state === "retry") return null;
    if (tabs && !heard) {
      tabs.postMessage({
        key: entry.key, url: entry.url, state: result.state,
        html: result.html || "", words: result.words || ""
      });
    }
    if (waiting[entry.url] === entry.key) delete waiting[entry.url];
    var form = formFor(entry.url);
    if (!form) return null;
    redraw(form, result);
    // A refusal shown in its row has been seen: the entry leaves the outbox.
    return result.state === "refused" ? remove(entry.key) : null;
  }

  function pending() { return Object.keys(waiting).length > 0; }

  function sendNow() {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (!navigator.onLine) return Promise.resolve();
    return flush(liveCsrf(), shown).then(function (outcome) {
      if (outcome.waiting || pending()) timer = setTimeout(sendNow, RETRY_MS);
    }, function () {
      timer = setTimeout(sendNow, RETRY_MS);
    });
  }

  function askForSync() {
    if (!navigator.serviceWorker) return;
    navigator.serviceWorker.ready.then(function (registration) {
      return registration.sync ? registration.sync.register(SYNC_TAG) : null;
    }).catch(function () { /* no Background Sync here: the page sends it */ });
  }

  /* Keep the form's entry in the outbox (in place of any older one of the same row). */
  function keep(form) {
    var url = urlOf(form);
    var keyBox = form.querySelector("[name=" + KEY_FIELD + "]");
    var csrfBox = form.querySelector("[name=csrfmiddlewaretoken]");
    var entry = {
      key: (keyBox && keyBox.value) || newKey(),
      url: url,
      fields: fieldsOf(form),
      game: form.getAttribute("data-outbox-game") || "",
      page: root.location.pathname,
      saved_at: Date.now(),
      state: "pending",
      csrf: csrfBox ? csrfBox.value : ""
    };
    waiting[url] = entry.key;
    sayWaiting(form);
    // The notice sits above the row's boxes, out of sight of the Save button a thumb just hit.
    var notice = noticeOf(form);
    if (notice && notice.scrollIntoView) notice.scrollIntoView({ block: "center" });
    return all().then(function (entries) {
      return write(function (store) {
        entries.forEach(function (old) { if (old.url === url) store.delete(old.key); });
        store.put(entry);
      });
    }).then(function () {
      askForSync();
      return entry;
    }, function () {
      delete waiting[url];
      say(form, form.getAttribute("data-word-not-kept") || "", "row-errors");
    });
  }

  // A save: a fresh key each time. With no network, or with an earlier entry of the row still
  // waiting (it is sent first, in order), the entry goes into the outbox instead of to htmx.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || !form.matches || !form.matches(FORMS)) return;
    var keyBox = form.querySelector("[name=" + KEY_FIELD + "]");
    if (keyBox) keyBox.value = newKey();
    if (navigator.onLine && !waiting[urlOf(form)]) return;
    event.preventDefault();
    event.stopPropagation();
    keep(form).then(sendNow);
  }, true);

  // The save left with the network up but never reached the server, or its answer never came
  // back (or not within the form's timeout, on a Wi-Fi that holds requests without answering):
  // kept with the key it was sent with, so a second arrival is recognised.
  function failed(event) {
    var form = event.detail && event.detail.elt;
    if (!form || !form.matches || !form.matches(FORMS)) return;
    keep(form).then(function () {
      if (!timer) timer = setTimeout(sendNow, RETRY_MS);
    });
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);

  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.type !== "crokinole-outbox") return;
      shown({ key: data.key, url: data.url }, { state: data.state, html: data.html }, true);
    });
  }
  if (tabs) {
    tabs.onmessage = function (event) {
      var data = event.data || {};
      shown(
        { key: data.key, url: data.url },
        { state: data.state, html: data.html, words: data.words },
        true
      );
    };
  }

  root.addEventListener("online", sendNow);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && pending()) sendNow();
  });

  /* On every visit: what waits is shown in its row with its values, what was refused meanwhile
   * (by the service worker's send) is shown with the server's words; then send. */
  function start() {
    all().then(function (entries) {
      entries.forEach(function (entry) {
        var form = formFor(entry.url);
        if (entry.state === "pending") {
          waiting[entry.url] = entry.key;
          if (form) {
            restore(form, entry);
            sayWaiting(form);
          }
        } else if (entry.state === "refused" && form) {
          shown(entry, { state: "refused", html: entry.html, words: entry.words });
        }
      });
    }).then(sendNow, function () { /* no IndexedDB (a private window): nothing kept */ });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(self);
