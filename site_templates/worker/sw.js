/* qbank's service worker: the study site without a network.
 *
 * The build writes this file at the site root (qbank/offline.py), so its scope is the whole
 * site, with the build's data on its first line: the build id, the shell (theme and qbank
 * assets), the default locale's home page, each locale's own pages and the text of the page
 * shown for a page that was never kept.
 *
 * One worker serves one build, never another's bytes:
 * - every file it keeps sits in caches named by its build ("qbank <scope> <build>", and one
 *   "... keep <locale>/<field>" per kept field); a kept file is served from there first, so
 *   a page, its assets and its data files always come from the same build;
 * - a file it does not have is fetched (revalidated, never the browser's possibly older copy)
 *   and kept only if the site's sw.js still names this build after the fetch; when the site
 *   has moved on, a page load is served from the network with all of its files (that tab is
 *   "passed through"), and a script's request (instant navigation, search, practice data)
 *   gets a 503, so an old page never mixes in new files;
 * - a new build's worker installs beside this one (its cache filled, kept fields copied or
 *   downloaded again) and waits: the page shows "a new version is available", and only the
 *   reader's "Reload" activates it; the old caches are dropped once it is active, and every
 *   open tab reloads (offline.js);
 * - a site whose sw.js is gone (offline: false) or removes itself (mkdocs serve) makes this
 *   worker remove its caches and itself.
 * localStorage (study data) is never touched. */
self.QBANK = null;
(function () {
  "use strict";
  var DATA = self.QBANK || {};
  var SCOPE = self.registration.scope;
  var NS = "qbank " + new URL(SCOPE).pathname + " ";
  var META = NS + "meta";
  var SITE = NS + DATA.build;
  var KEEP = SITE + " keep ";
  var KEPT_KEY = SCOPE + "__qbank/kept";
  var THROUGH_KEY = SCOPE + "__qbank/through";
  var NOT_KEPT = /(^|\/)api\/bank\.json$|\.map$/;
  var TERMS_FILE = /^([^\/]+)\/api\/search\/t\/([^\/]+\.json)$/;
  var BATCH = 16;

  function abs(path) { return SCOPE + path; }

  /* A URL as kept: no query or fragment (a static site's files do not depend on them), a
   * folder as its index.html (Material links folders, the language switcher index.html). */
  function key(url) {
    var u = new URL(url);
    u.hash = "";
    u.search = "";
    if (u.pathname.slice(-1) === "/") u.pathname += "index.html";
    return u.href;
  }

  function removeAll() {
    return caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n.indexOf(NS) === 0; })
        .map(function (n) { return caches.delete(n); }));
    });
  }

  function reloadAll() {
    return self.clients.matchAll({ type: "window" }).then(function (list) {
      list.forEach(function (client) { if (client.navigate) client.navigate(client.url); });
    });
  }

  /* ------------------------------------------------- a worker that removes itself */
  if (DATA.off) {
    self.addEventListener("install", function () { self.skipWaiting(); });
    self.addEventListener("activate", function (event) {
      event.waitUntil(removeAll().then(function () {
        return self.registration.unregister();
      }).then(reloadAll));
    });
    return;
  }

  /* ------------------------------------------------- which build the site serves */
  /* The build named by the site's sw.js now: an id, "gone" (no qbank worker there any more)
   * or "unknown" (no answer: offline, a server error). */
  async function serverBuild() {
    var response;
    try {
      response = await fetch(abs("sw.js"), { cache: "no-cache" });
    } catch (error) {
      return "unknown";
    }
    if (response.status === 404 || response.status === 410) return "gone";
    if (!response.ok) return "unknown";
    var first = (await response.text()).split("\n", 1)[0];
    var found = /^self\.QBANK = (.*);$/.exec(first);
    if (!found) return "gone";
    try {
      var data = JSON.parse(found[1]);
      return data.off ? "gone" : String(data.build);
    } catch (error) {
      return "gone";
    }
  }

  /* The site is another build's now, or has no worker: fetch the new worker, or leave. */
  async function moved(build) {
    if (build === "gone") {
      await removeAll();
      await self.registration.unregister();
      return;
    }
    try { await self.registration.update(); } catch (error) { /* offline again */ }
  }

  /* ------------------------------------------------- tabs passed through to the network */
  var through = null;
  async function passedThrough() {
    if (through === null) {
      var stored = await readJson(META, THROUGH_KEY);
      through = new Set(Array.isArray(stored) ? stored : []);
    }
    return through;
  }

  async function passThrough(id) {
    if (!id) return;
    var set = await passedThrough();
    set.add(id);
    var open = (await self.clients.matchAll({ includeUncontrolled: true })).map(function (c) {
      return c.id;
    });
    set.forEach(function (one) { if (one !== id && open.indexOf(one) < 0) set.delete(one); });
    await writeJson(META, THROUGH_KEY, Array.from(set));
  }

  /* ------------------------------------------------- caches */
  async function readJson(cacheName, url) {
    var cache = await caches.open(cacheName);
    var response = await cache.match(url);
    if (!response) return null;
    try { return await response.json(); } catch (error) { return null; }
  }

  function writeJson(cacheName, url, value) {
    return caches.open(cacheName).then(function (cache) {
      return cache.put(url, new Response(JSON.stringify(value), {
        headers: { "Content-Type": "application/json" } }));
    });
  }

  var owned = null;
  function ownCaches() {
    if (owned === null) {
      owned = caches.keys().then(function (names) {
        return names.filter(function (n) { return n === SITE || n.indexOf(KEEP) === 0; });
      });
    }
    return owned;
  }

  async function lookup(url) {
    var names = await ownCaches();
    for (var i = 0; i < names.length; i++) {
      var found = await (await caches.open(names[i])).match(url);
      if (found) return found;
    }
    return null;
  }

  function fresh(url) { return fetch(url, { cache: "no-cache", credentials: "same-origin" }); }

  function keepable(response) {
    return response.ok && response.type === "basic" && !response.redirected;
  }

  /* Files of this build fetched from the network, kept once the site is seen to still be
   * this build (a deploy after the check would show in the next check). */
  async function fetchAndKeep(cacheName, urls) {
    var got = [];
    for (var i = 0; i < urls.length; i++) {
      try {
        var response = await fresh(urls[i]);
        if (keepable(response)) got.push([urls[i], response]);
      } catch (error) { /* offline: what is missing stays missing */ }
    }
    if (!got.length || (await serverBuild()) !== DATA.build) return;
    var cache = await caches.open(cacheName);
    await Promise.all(got.map(function (pair) { return cache.put(key(pair[0]), pair[1]); }));
  }

  /* The first page of a locale a reader opens brings that locale's own pages (home, review
   * queue, saved, progress) along: they work offline from then on. */
  var localesDone = {};
  async function keepLocale(path) {
    var locale = path.split("/")[0];
    var pages = (DATA.locales || {})[locale];
    if (!pages || localesDone[locale]) return;
    localesDone[locale] = true;
    var cache = await caches.open(SITE);
    var missing = [];
    for (var i = 0; i < pages.length; i++) {
      if (!(await cache.match(abs(pages[i])))) missing.push(abs(pages[i]));
    }
    await fetchAndKeep(SITE, missing);
  }

  /* ------------------------------------------------- the page shown for a missing page */
  function escapeText(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  function offlinePage(path) {
    var locale = path.split("/")[0];
    var texts = DATA.text || {};
    var text = texts[locale] || texts[Object.keys(texts)[0]] || {};
    var home = (DATA.locales || {})[locale] ? abs(locale + "/") : SCOPE;
    var html = "<!doctype html><html lang=\"" + escapeText(locale) + "\"><meta charset=\"utf-8\">" +
      "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">" +
      "<title>" + escapeText(text.title || "") + "</title>" +
      "<h1>" + escapeText(text.title || "") + "</h1><p>" + escapeText(text.text || "") + "</p>" +
      "<p><a href=\"" + escapeText(home) + "\">" + escapeText(text.home || "") + "</a></p></html>";
    return new Response(html, {
      status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }

  /* ------------------------------------------------- serving */
  self.addEventListener("fetch", function (event) {
    var request = event.request;
    if (request.method !== "GET" || request.url.indexOf(SCOPE) !== 0) return;
    var path = key(request.url).slice(SCOPE.length);
    if (path === "sw.js" || NOT_KEPT.test(path) || path.indexOf("__qbank/") === 0) return;
    event.respondWith(respond(event, path));
  });

  async function respond(event, path) {
    var request = event.request;
    var navigate = request.mode === "navigate";
    if (!navigate && (await passedThrough()).has(event.clientId)) return fetch(request);
    var kept = await lookup(key(request.url));
    if (kept) {
      if (navigate) event.waitUntil(checkSite());
      return kept;
    }
    var response;
    try {
      response = await fetch(new Request(request, { cache: "no-cache" }));
    } catch (error) {
      if (navigate) return offlinePage(path);
      return (await keptTerms(path)) || Response.error();
    }
    if (!keepable(response)) return response;
    var build = await serverBuild();
    if (build === DATA.build) {
      var copy = response.clone();
      event.waitUntil(caches.open(SITE).then(function (cache) {
        return cache.put(key(request.url), copy);
      }).then(function () { return keepLocale(path); }));
      return response;
    }
    if (build === "unknown") return response; // served, not kept: its build is not known
    event.waitUntil(moved(build));
    if (navigate) {
      await passThrough(event.resultingClientId);
      return fetch(request); // (again: the first answer may predate the new build)
    }
    return new Response("", {
      status: 503, statusText: "Service Unavailable (a new version of the site is available)" });
  }

  /* A page served from the cache: does the site still serve this build? (The browser's own
   * update check finds a new worker; this one also notices a site without one.) */
  async function checkSite() {
    var build = await serverBuild();
    if (build !== DATA.build && build !== "unknown") await moved(build);
  }

  /* ------------------------------------------------- install, activate */
  self.addEventListener("install", function (event) { event.waitUntil(install()); });

  async function install() {
    var cache = await caches.open(SITE);
    var urls = (DATA.shell || []).map(abs);
    if (DATA.home) urls.push(abs(DATA.home));
    var requests = urls.map(function (url) { return new Request(url, { cache: "no-cache" }); });
    await cache.addAll(requests);
    if (DATA.home) { // the theme's files as the home page names them (any publisher's)
      var html = await (await cache.match(abs(DATA.home))).text();
      var more = themeFiles(html, abs(DATA.home));
      var missing = [];
      for (var i = 0; i < more.length; i++) {
        if (!(await cache.match(more[i]))) missing.push(new Request(more[i], { cache: "no-cache" }));
      }
      await cache.addAll(missing);
    }
    await keepAgain();
    var build = await serverBuild();
    if (build !== DATA.build && build !== "unknown") {
      await caches.delete(SITE);
      throw new Error("the site changed during the install: the newer worker installs instead");
    }
  }

  function themeFiles(html, page) {
    var found = [];
    var pattern = /<(?:script\b[^>]*?\bsrc|link\b[^>]*?\bhref)="?([^"\s>]+)/gi;
    var match;
    while ((match = pattern.exec(html))) {
      var url = new URL(match[1], page).href;
      if (url.indexOf(SCOPE) === 0 && !NOT_KEPT.test(url) && found.indexOf(url) < 0 &&
          /\.(js|css|png|svg|ico|woff2?)$/.test(new URL(url).pathname)) found.push(url);
    }
    return found;
  }

  self.addEventListener("activate", function (event) {
    event.waitUntil((async function () {
      var names = await caches.keys();
      await Promise.all(names.filter(function (n) {
        return n.indexOf(NS) === 0 && n !== META && n !== SITE && n.indexOf(KEEP) !== 0;
      }).map(function (n) { return caches.delete(n); }));
      await writeJson(META, THROUGH_KEY, []);
      owned = null;
      await self.clients.claim();
    })());
  });

  /* ------------------------------------------------- kept fields */
  /* A terms file offline, made from the kept fields' shares of it (``<field>.terms.json``:
   * their questions' postings of each terms file): what search.js would find in the whole
   * file among the kept questions, and nothing of the others. */
  var shares = {};
  async function keptTerms(path) {
    var found = TERMS_FILE.exec(path);
    if (!found) return null;
    var locale = found[1];
    var start = KEEP + locale + "/";
    var names = (await ownCaches()).filter(function (n) { return n.indexOf(start) === 0; });
    if (!names.length) return null;
    var merged = {};
    for (var i = 0; i < names.length; i++) {
      var name = names[i];
      if (!(name in shares)) {
        var url = abs(locale + "/api/offline/" + name.slice(start.length) + ".terms.json");
        var kept = await (await caches.open(name)).match(url);
        shares[name] = kept ? await kept.json() : {};
      }
      var part = shares[name][found[2]] || {};
      Object.keys(part).forEach(function (term) {
        var sum = 0;
        var codes = merged[term] || (merged[term] = []);
        part[term].forEach(function (delta) { sum += delta; codes.push(sum); });
      });
    }
    var out = {};
    Object.keys(merged).sort().forEach(function (term) {
      var last = 0;
      out[term] = merged[term].sort(function (a, b) { return a - b; }).map(function (code) {
        var delta = code - last;
        last = code;
        return delta;
      });
    });
    return new Response(JSON.stringify(out), { headers: { "Content-Type": "application/json" } });
  }

  function keepName(locale, field) { return KEEP + locale + "/" + field; }
  function manifestUrl(locale, field) {
    return abs(locale + "/api/offline/" + field + ".json");
  }

  async function keptList() {
    var list = await readJson(META, KEPT_KEY);
    return Array.isArray(list) ? list : [];
  }

  async function setKept(locale, field, keep) {
    var list = (await keptList()).filter(function (k) {
      return !(k.locale === locale && k.field === field);
    });
    if (keep) list.push({ locale: locale, field: field });
    await writeJson(META, KEPT_KEY, list);
  }

  /* Download the files of ``manifest`` into ``cache``; a file another cache holds with the
   * same digest (the previous build's kept copy) is copied, not downloaded. */
  async function download(cache, manifest, previous, progress) {
    var files = manifest.files;
    var before = {};
    if (previous) {
      previous.manifest.files.forEach(function (f) { before[f[0]] = f[2]; });
    }
    var done = 0;
    var bytes = 0;
    for (var start = 0; start < files.length; start += BATCH) {
      var batch = files.slice(start, start + BATCH);
      var fetchNow = [];
      for (var i = 0; i < batch.length; i++) {
        var url = abs(batch[i][0]);
        var old = before[batch[i][0]] === batch[i][2] ? await previous.cache.match(url) : null;
        if (old) await cache.put(url, old);
        else fetchNow.push(new Request(url, { cache: "no-cache" }));
        bytes += batch[i][1];
      }
      await cache.addAll(fetchNow);
      done += batch.length;
      if (progress) progress({ state: "progress", done: done, files: files.length, bytes: bytes });
    }
  }

  async function previousKept(locale, field) {
    var names = await caches.keys();
    var suffix = " keep " + locale + "/" + field;
    for (var i = 0; i < names.length; i++) {
      var name = names[i];
      if (name.indexOf(NS) === 0 && name !== keepName(locale, field) &&
          name.slice(-suffix.length) === suffix) {
        var cache = await caches.open(name);
        var response = await cache.match(manifestUrl(locale, field));
        if (response) return { cache: cache, manifest: await response.json() };
      }
    }
    return null;
  }

  async function keep(locale, field, progress) {
    var url = manifestUrl(locale, field);
    var name = keepName(locale, field);
    var existed = (await caches.keys()).indexOf(name) >= 0;
    try {
      var response = await fresh(url);
      if (!response.ok) throw new Error("the field's manifest: HTTP " + response.status);
      var manifest = await response.clone().json();
      if (manifest.build !== DATA.build) return { state: "stale" };
      var cache = await caches.open(name);
      await download(cache, manifest, await previousKept(locale, field), progress);
      await cache.put(url, response);
      var build = await serverBuild();
      if (build !== DATA.build && build !== "unknown") {
        if (!existed) await caches.delete(name);
        return { state: "stale" };
      }
      await setKept(locale, field, true);
      owned = null;
      shares = {};
      return { state: "kept", bytes: manifest.bytes, files: manifest.files.length };
    } catch (error) {
      if (!existed) await caches.delete(name); // what was kept before stays as it was
      owned = null;
      var quota = error && error.name === "QuotaExceededError";
      return { state: quota ? "quota" : "failed", message: String(error) };
    }
  }

  /* A new build's install keeps again what the reader kept with the previous one. A field
   * that no longer fits is dropped (and the field page says it is not kept); any other
   * failure fails the install, which the browser tries again later. */
  async function keepAgain() {
    var list = await keptList();
    for (var i = 0; i < list.length; i++) {
      var result = await keep(list[i].locale, list[i].field, null);
      if (result.state === "quota") await setKept(list[i].locale, list[i].field, false);
      else if (result.state !== "kept") throw new Error("could not keep " + list[i].field);
    }
  }

  async function status() {
    var list = await keptList();
    var kept = [];
    for (var i = 0; i < list.length; i++) {
      var one = list[i];
      var names = await caches.keys();
      if (names.indexOf(keepName(one.locale, one.field)) < 0) continue;
      var cache = await caches.open(keepName(one.locale, one.field));
      var response = await cache.match(manifestUrl(one.locale, one.field));
      if (!response) continue;
      var manifest = await response.json();
      kept.push({ locale: one.locale, field: one.field, bytes: manifest.bytes,
        files: manifest.files.length });
    }
    return { build: DATA.build, kept: kept };
  }

  async function remove(locale, field) {
    await setKept(locale, field, false);
    await caches.delete(keepName(locale, field));
    owned = null;
    shares = {};
    return { state: "removed" };
  }

  /* ------------------------------------------------- messages from pages (offline.js) */
  self.addEventListener("message", function (event) {
    var data = event.data || {};
    var port = event.ports && event.ports[0];
    function reply(message) { if (port) port.postMessage(message); }
    var work = null;
    if (data.type === "activate") {
      self.skipWaiting();
    } else if (data.type === "status") {
      work = status().then(reply);
    } else if (data.type === "keep") {
      work = keep(String(data.locale), String(data.field), reply).then(reply);
    } else if (data.type === "remove") {
      work = remove(String(data.locale), String(data.field)).then(reply);
    } else if (data.type === "visited" && Array.isArray(data.urls)) {
      // A page opened before this worker controlled it: keep it and what it loaded.
      var urls = data.urls.map(String).filter(function (u) {
        return u.indexOf(SCOPE) === 0 && !NOT_KEPT.test(u) && u.indexOf(abs("sw.js")) !== 0;
      });
      work = (async function () {
        var missing = [];
        for (var i = 0; i < urls.length; i++) {
          if (!(await lookup(key(urls[i])))) missing.push(urls[i]);
        }
        await fetchAndKeep(SITE, missing);
        if (urls[0]) await keepLocale(key(urls[0]).slice(SCOPE.length));
        reply({ state: "visited" });
      })();
    }
    if (work) event.waitUntil(work);
  });
})();
