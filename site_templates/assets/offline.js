/* qbank: the page's side of studying offline (an ES module every page loads once; instant
 * navigation keeps it running). It registers the site's service worker (sw.js at the site
 * root), tells a worker that has just arrived which page it missed, shows "a new version is
 * available" when a newer build's worker waits, and fills a field page's
 * <div class="qb-offline"> with "Keep this field for offline study". Reading DESIGN.md's
 * "Offline" first helps; sw.js describes the worker. */

import { t } from "./lib/text.js";

const workers = navigator.serviceWorker;

/* The site's root URL, from Material's __config (as qbank.js reads it). */
function siteRoot() {
  const config = document.getElementById("__config");
  try {
    return new URL(JSON.parse(config.textContent).base + "/", location.href).href;
  } catch (error) {
    return new URL("./", location.href).href;
  }
}

/* The page locale's interface text (lib/text.js); "" for a key it lacks. */
function widgetText(name) {
  const text = t(name);
  return text === name ? "" : text;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function ask(worker, message, onProgress) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => {
      if (event.data && event.data.state === "progress") {
        if (onProgress) onProgress(event.data);
      } else {
        resolve(event.data || {});
      }
    };
    worker.postMessage(message, [channel.port2]);
  });
}

function megabytes(bytes, locale) {
  const number = new Intl.NumberFormat(locale || undefined, { maximumFractionDigits: 1 });
  return bytes >= 1e6 ? number.format(bytes / 1e6) + " MB" : number.format(bytes / 1e3) + " kB";
}

function fill(template, values) {
  return String(template || "").replace(/\{(\w+)\}/g, (all, name) =>
    name in values ? String(values[name]) : all);
}

/* ------------------------------------------------------------ the update notice */
let notice = null;
function showUpdate(waiting) {
  if (notice && document.body.contains(notice)) return;
  // Laid out as qbank.css lays out the storage notices (a box of its own, never theirs).
  notice = element("div", "qb-storage-notices qb-offline-update");
  const box = element("div", "qb-storage-notice");
  box.setAttribute("role", "status");
  box.append(element("p", "", widgetText("offlineUpdate")));
  const button = element("button", "", widgetText("offlineReload"));
  button.type = "button";
  button.addEventListener("click", () => {
    button.disabled = true;
    waiting.postMessage({ type: "activate" }); // the new worker takes over: every tab reloads
  });
  box.append(button);
  notice.append(box);
  document.body.append(notice); // outside Material's content: instant navigation keeps it
}

function watchUpdates(registration) {
  const check = () => {
    if (registration.waiting && workers.controller) showUpdate(registration.waiting);
  };
  check();
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    if (!installing) return;
    installing.addEventListener("statechange", () => {
      if (installing.state === "installed") check();
    });
  });
  const update = () => registration.update().catch(() => {});
  window.addEventListener("online", update);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") update();
  });
  return update;
}

/* ------------------------------------------------------------ "Keep this field" */
async function fieldBox(box, active) {
  if (box.dataset.qbOffline) return;
  box.dataset.qbOffline = "1";
  let text = {};
  try {
    text = JSON.parse(box.dataset.text || "{}");
  } catch (error) { /* the English keys below stay empty */ }
  const locale = box.dataset.locale;
  const field = box.dataset.field;
  const lang = document.documentElement.lang;
  const line = element("p", "qb-offline__line");
  const button = element("button", "md-button");
  button.type = "button";
  const message = element("p", "qb-offline__message");
  message.setAttribute("role", "status");
  box.replaceChildren(line, button, message);
  let size = null;
  try {
    const response = await fetch(new URL(box.dataset.summary, location.href));
    size = (await response.json()).fields[field] || null;
  } catch (error) { /* offline and never kept: the box says what the worker says */ }

  async function draw() {
    const status = await ask(active(), { type: "status" });
    const kept = (status.kept || []).find((k) => k.locale === locale && k.field === field);
    box.hidden = false;
    button.disabled = false;
    if (kept) {
      line.textContent = fill(text.kept, { size: megabytes(kept.bytes, lang), n: kept.files });
      button.textContent = text.remove;
      button.onclick = async () => {
        button.disabled = true;
        await ask(active(), { type: "remove", locale, field });
        message.textContent = text.removed;
        draw();
      };
    } else if (size) {
      line.textContent = fill(text.size, { size: megabytes(size[0], lang), n: size[1] });
      button.textContent = text.keep;
      button.onclick = () => keep(size[0]);
    } else {
      box.hidden = true;
    }
  }

  async function keep(bytes) {
    button.disabled = true;
    message.textContent = "";
    if (navigator.storage && navigator.storage.estimate) {
      const estimate = await navigator.storage.estimate();
      const free = (estimate.quota || 0) - (estimate.usage || 0);
      if (estimate.quota && bytes > free) {
        message.textContent = fill(text.no_room, {
          size: megabytes(bytes, lang), free: megabytes(Math.max(free, 0), lang) });
        button.disabled = false;
        return;
      }
    }
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
    const result = await ask(active(), { type: "keep", locale, field }, (progress) => {
      message.textContent = fill(text.progress, {
        percent: Math.floor((100 * progress.done) / progress.files) });
    });
    message.textContent = {
      kept: text.done, quota: text.quota, stale: text.stale, failed: text.failed,
    }[result.state] || text.failed;
    draw();
  }

  draw();
}

/* ------------------------------------------------------------ start */
async function start() {
  if (!workers || !window.isSecureContext) return;
  const root = siteRoot();
  let registration;
  try {
    registration = await workers.register(root + "sw.js", { scope: root });
  } catch (error) {
    return; // (a site without sw.js: offline is off)
  }
  let controlled = Boolean(workers.controller);
  workers.addEventListener("controllerchange", () => {
    // The first worker taking this page over changes nothing; a newer build's does (the
    // reader chose it here or in another tab): the page reloads, never mixing builds.
    if (controlled) location.reload();
    controlled = true;
  });
  const ready = await workers.ready;
  const update = watchUpdates(registration);
  if (!workers.controller) { // this page came before the worker: keep it and its files
    const urls = [location.href].concat(
      performance.getEntriesByType("resource").map((entry) => entry.name));
    ready.active.postMessage({ type: "visited", urls });
  }
  const active = () => workers.controller || registration.active;
  const page = () => {
    document.querySelectorAll(".qb-offline[data-field]").forEach((box) => fieldBox(box, active));
  };
  page();
  if (window.document$ && window.document$.subscribe) {
    let first = true;
    window.document$.subscribe(() => {
      page();
      if (!first) update();
      first = false;
    });
  }
}

start();
