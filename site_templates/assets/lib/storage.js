/* The study state in localStorage (DESIGN.md, "Study state"): the only module that touches it.
 *
 * Each key is read once per document, checked against its shape (lib/shapes.js) and kept
 * here; writes go to both, so every part of the widget (questions, practice, review, saved)
 * sees the others' writes. Another tab's write (a "storage" event) drops the kept copy.
 * One policy for damaged data, whatever the key: a stored text that is not JSON, or a value
 * whose records are not all readable, is set aside under "<key>:damaged:<ms>" (copied; moved
 * when there is no room for a copy), never deleted; the key then holds what was readable, and
 * a notice at the foot of the window says so and offers a download of everything read and set
 * aside. Storage that cannot be read at all (denied) leaves the widget working in memory;
 * storage that is full says so the same way. */

import { h } from "./dom.js";
import { HISTORY, META, PREFIX, PROGRESS, REVIEW, SAVED, SCHEMA, check, empty, migrate, plain } from "./shapes.js";
import { t } from "./text.js";

let memory = {};
let memoryOnly = false; // storage cannot be read at all (denied): memory only
const noWrite = new Set(); // keys never written: a damaged entry that could not be set aside
const unsaved = new Set(); // keys whose last write failed: memory holds the newer value
const damaged = {}; // set aside this document: {key: {aside: "<key>:damaged:<ms>" or null, raw}}

/** The readable value of `key` (a key of lib/shapes.js), a fresh empty one when none is
 * stored. The value is the kept copy: change it through `update` or `save`. */
export function load(key) {
  if (key in memory) return memory[key];
  let value = empty(key);
  let raw = null;
  if (!memoryOnly) {
    try {
      raw = localStorage.getItem(key);
    } catch (error) {
      memoryOnly = true; // private mode or storage denied: keep going in memory
    }
  }
  if (raw) value = readStored(key, raw);
  memory[key] = value;
  return value;
}

function readStored(key, raw) {
  let result;
  try {
    result = check(key, JSON.parse(raw));
  } catch (error) {
    result = { value: empty(key), whole: false }; // not JSON (cut short, hand-edited, ...)
  }
  if (result.whole) return result.value;
  damaged[key] = { aside: setAside(key, raw), raw };
  if (damaged[key].aside) write(key, result.value); // the key now holds what was readable
  notice("damaged");
  return result.value;
}

/* Copy `raw` to "<key>:damaged:<ms>"; with no room for a copy, move it there (removing the
 * original frees more room than the copy needs), but only once an empty write under the new
 * key has shown that writing works at all. Otherwise the entry stays where it is and the key
 * is not written this document. Returns the new key, or null. */
function setAside(key, raw) {
  const aside = `${key}:damaged:${Date.now()}`;
  try {
    localStorage.setItem(aside, raw);
    return aside;
  } catch (error) {
    // no room for a copy
  }
  try {
    localStorage.setItem(aside, "");
  } catch (error) {
    noWrite.add(key);
    notice("full");
    return null;
  }
  try {
    localStorage.removeItem(key);
    localStorage.setItem(aside, raw);
    return aside;
  } catch (error) {
    try {
      localStorage.removeItem(aside);
      localStorage.setItem(key, raw);
    } catch (again) {
      // the text is still in `damaged`, for the download
    }
    noWrite.add(key);
    notice("full");
    return null;
  }
}

/** Stores `value` as `key`'s. */
export function save(key, value) {
  memory[key] = value;
  write(key, value);
}

/** Stores what `change` makes of `key`'s value (it may change it in place and return it). */
export function update(key, change) {
  const value = change(load(key));
  save(key, value);
  return value;
}

function write(key, value) {
  if (memoryOnly || noWrite.has(key)) return false;
  try {
    localStorage.setItem(key, JSON.stringify(value));
    unsaved.delete(key);
    return true;
  } catch (error) {
    unsaved.add(key); // keep going in memory; the next write tries again
    if (quotaError(error)) notice("full");
    return false;
  }
}

/** Whether the last write of `key` reached storage. */
export function saved(key) {
  return !memoryOnly && !noWrite.has(key) && !unsaved.has(key);
}

function quotaError(e) {
  return Boolean(e) && (e.name === "QuotaExceededError" || e.name === "NS_ERROR_DOM_QUOTA_REACHED" ||
    e.code === 22 || e.code === 1014);
}

/** Drops the kept copy of `key` (written behind this module's back: an import). */
function reread(key) {
  delete memory[key];
  unsaved.delete(key);
}

window.addEventListener("storage", (e) => {
  if (memoryOnly) return;
  if (e.key === null) memory = {};
  else if (!noWrite.has(e.key) && !unsaved.has(e.key)) delete memory[e.key];
});

/* -- the whole state (assets/transfer.js) ------------------------------------------------ */
const NAME = /^[a-z][a-z0-9_-]*$/; // set-aside copies have a colon more: never state

/** Every key of the state, as its name ("progress" for "qbank:v1:progress"), META aside. */
export function names() {
  let keys = [];
  try {
    keys = Object.keys(localStorage);
  } catch (error) {
    return [];
  }
  return keys.filter((key) => key.startsWith(PREFIX)).map((key) => key.slice(PREFIX.length))
    .filter((name) => NAME.test(name) && PREFIX + name !== META).sort();
}

/** The whole state as stored: {data: {name: parsed value}, unreadable: [names]}. */
export function state() {
  const data = {};
  const unreadable = [];
  for (const name of names()) {
    try {
      data[name] = JSON.parse(localStorage.getItem(PREFIX + name));
    } catch (error) {
      unreadable.push(name);
    }
  }
  return { data, unreadable };
}

/** Stores `values` ({name: value}), all or nothing: a failed write puts back what was there
 * and throws. */
export function storeAll(values) {
  const before = new Map();
  try {
    for (const [name, value] of Object.entries(values)) {
      before.set(name, localStorage.getItem(PREFIX + name));
      localStorage.setItem(PREFIX + name, JSON.stringify(value));
    }
  } catch (error) {
    for (const [name, text] of before) {
      try {
        if (text === null) localStorage.removeItem(PREFIX + name);
        else localStorage.setItem(PREFIX + name, text);
      } catch (again) {
        // putting back the old text frees room, so this is not expected to fail
      }
    }
    throw error;
  } finally {
    for (const name of before.keys()) reread(PREFIX + name);
  }
}

/** Brings the stored state to this release's schema (once per document, at start). A newer
 * schema is left alone. */
export function migrateStorage() {
  try {
    const meta = JSON.parse(localStorage.getItem(META) || "null");
    const schema = plain(meta) && typeof meta.schema === "number" ? meta.schema : 1;
    if (meta && schema >= SCHEMA) return;
    if (schema < SCHEMA) {
      const found = state().data; // an unreadable key: its own check sets it aside
      for (const [name, value] of Object.entries(migrate(found, schema))) {
        // a key the step leaves as it was keeps its stored bytes (a damaged one is set aside
        // by its own check, byte for byte)
        if (JSON.stringify(value) === JSON.stringify(found[name])) continue;
        localStorage.setItem(PREFIX + name, JSON.stringify(value));
      }
    }
    localStorage.setItem(META, JSON.stringify({ schema: SCHEMA }));
  } catch (error) {
    // storage off or full: the keys' own checks deal with it
  }
}

/* -- the notice -------------------------------------------------------------------------- */
/* A short notice at the foot of the window when stored data was unreadable (and set aside)
 * or cannot be saved (storage full), with a download of everything the widget holds. It sits
 * outside Material's content, so instant navigation keeps it. Once per kind per document,
 * even after the reader closed it. */
const noticed = new Set();
function notice(kind) {
  if (!document.body) {
    document.addEventListener("DOMContentLoaded", () => notice(kind));
    return;
  }
  if (noticed.has(kind)) return;
  noticed.add(kind);
  const box = h("div", { class: "qb-storage-notice", role: "alert", "data-kind": kind });
  box.append(h("p", null, t(kind === "full" ? "storageFull" : "storageDamaged")));
  const download = h("button", { type: "button", class: "qb-storage-export" }, t("storageExport"));
  download.addEventListener("click", rescue);
  const close = h("button", { type: "button", class: "qb-storage-close", title: t("storageClose"),
    "aria-label": t("storageClose") }, "×");
  close.addEventListener("click", () => box.remove());
  box.append(download, close);
  let stack = document.querySelector(".qb-storage-notices");
  if (!stack) {
    stack = h("div", { class: "qb-storage-notices" });
    document.body.append(stack);
  }
  stack.append(box);
}

/** Offers `text` as a download named `name` (JSON). */
export function offer(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = h("a", { href: url, download: name, hidden: "" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

/* Downloads qbank-progress-<date>.json: what could be read of each key, and the text of every
 * entry set aside with the key it was kept under (transfer.js imports it). */
function rescue() {
  const data = { exported: new Date().toISOString(), site: location.origin, readable: {}, setAside: {} };
  for (const key of [PROGRESS, HISTORY, REVIEW, SAVED]) data.readable[key] = load(key);
  for (const [key, { aside, raw }] of Object.entries(damaged)) data.setAside[key] = { keptAs: aside, text: raw };
  offer(`qbank-progress-${data.exported.slice(0, 10)}.json`, JSON.stringify(data, null, 1));
}
