/* Progress that travels (DESIGN.md, "Study state"): reading an exported file and merging its
 * state into this browser's. Pure: no storage, no page (tests/js/merge.test.js runs it in
 * node); transfer.js reads the state, shows the plan and stores it.
 *
 * A file is {format, version, schema, exported, data: {name: value}}; the download of the
 * widget's storage notice (lib/storage.js) is read too. Per record the newer one wins (a
 * record's time is the largest of its numeric ts, rts and t), lists are joined without
 * duplicates, and nothing is deleted. A file that cannot be read, is not one of ours, or was
 * made by a newer release is refused with the reason (a Refusal: a strings key and values). */

import { PREFIX, SCHEMA, check, migrate, plain } from "./shapes.js";

export const FORMAT = "qbank-study-state";
export const VERSION = 1; // of the file format; the storage schema travels beside it
export const BIGGEST = 50 * 1024 * 1024; // characters: no study state comes near it
const NAME = /^[a-z][a-z0-9_-]*$/; // set-aside copies have a colon more: never state
const META = "meta";
const TIMES = ["ts", "rts", "t"]; // fields giving a record's time (ms), where numbers

/** A reason to refuse an import: a strings key and the values its text needs. */
export class Refusal extends Error {
  constructor(key, values) {
    super(key);
    this.key = key;
    this.values = values || {};
  }
}

/** The file that exports `data` (a state {name: value}) at `now` (an ISO time). */
export function exported(data, now) {
  return { format: FORMAT, version: VERSION, schema: SCHEMA, exported: now, data };
}

/** Whether a text that is not JSON stops inside a string or an open object or array. */
export function cutShort(text) {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
  }
  return quoted || depth > 0;
}

/** The check of one kind's data: null when it is fine, else where it is not. */
export function damage(name, value) {
  const where = (id) => (id ? `${name} → ${id}` : name);
  const own = check(PREFIX + name, value);
  if (own) return own.whole ? null : where(own.bad);
  if (Array.isArray(value)) return null;
  if (!plain(value)) return where();
  const records = plain(value.items) ? value.items : value;
  if (value === records && "items" in value) return where("items");
  const bad = Object.keys(records).find((id) => id === "__proto__" || !plain(records[id]));
  return bad === undefined ? null : where(bad);
}

/* Whether a kind qbank knows comes as a container of another form (a list for a map). */
function anotherForm(name, value) {
  const own = check(PREFIX + name, value);
  return Boolean(own) && own.bad === "" && typeof value === "object" && value !== null &&
    Array.isArray(value) !== Array.isArray(own.value);
}

/* The download of the widget's storage notice: what could be read of each key, as
 * `readable` {key: value or null}; schema 1. */
function rescued(file) {
  return plain(file) && !("format" in file) && typeof file.exported === "string" && plain(file.readable);
}

function fromRescue(file) {
  const data = {};
  for (const [key, value] of Object.entries(file.readable)) {
    if (key.startsWith(PREFIX) && value !== null) data[key.slice(PREFIX.length)] = value;
  }
  return { format: FORMAT, version: VERSION, schema: 1, exported: file.exported, data };
}

/** A file's text → its data at this release's schema, or a Refusal. */
export function read(text) {
  if (text.length > BIGGEST) throw new Refusal("progress_err_big");
  let file;
  try {
    file = JSON.parse(text);
  } catch (error) {
    throw new Refusal(cutShort(text) ? "progress_err_cut" : "progress_err_json");
  }
  if (rescued(file)) file = fromRescue(file);
  if (!plain(file) || file.format !== FORMAT) throw new Refusal("progress_err_foreign");
  if (!Number.isInteger(file.version) || !Number.isInteger(file.schema) || file.schema < 1 ||
      !plain(file.data)) {
    throw new Refusal("progress_err_fields");
  }
  if (file.version > VERSION || file.schema > SCHEMA) {
    throw new Refusal("progress_err_newer", { version: file.version, schema: file.schema, ours: SCHEMA });
  }
  for (const name of Object.keys(file.data)) {
    if (!NAME.test(name) || name === META) throw new Refusal("progress_err_entry", { where: name });
    if (anotherForm(name, file.data[name])) throw new Refusal("progress_err_kind", { where: name });
    const where = damage(name, file.data[name]);
    if (where) throw new Refusal("progress_err_entry", { where });
  }
  return migrate(file.data, file.schema);
}

function time(record) {
  return plain(record) ? Math.max(0, ...TIMES.map((k) => (typeof record[k] === "number" ? record[k] : 0))) : 0;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

function mergeRecords(here, there, count) {
  const out = { ...here };
  for (const [id, record] of Object.entries(there)) {
    if (!own(here, id)) {
      out[id] = record;
      count.added++;
    } else if (same(here[id], record)) count.same++;
    else if (time(record) > time(here[id])) {
      out[id] = record;
      count.newer++;
    } else count.kept++;
  }
  return out;
}

function mergeList(here, there, count) {
  const seen = new Set(here.map((entry) => JSON.stringify(entry)));
  const out = here.slice();
  for (const entry of there) {
    const text = JSON.stringify(entry);
    if (seen.has(text)) count.same++;
    else {
      seen.add(text);
      out.push(entry);
      count.added++;
    }
  }
  if (count.added && out.every((entry) => plain(entry) && typeof entry.ts === "number")) {
    out.sort((a, b) => a.ts - b.ts);
  }
  return out;
}

const size = (value) => Object.keys(Array.isArray(value) || !plain(value.items) ? value : value.items).length;

/** What importing `data` into the state `here` would do: one row per kind {name, count:
 * {added, newer, kept, same}, value: the merged value, changed}. */
export function plan(here, data) {
  return Object.keys(data).sort().map((name) => {
    const there = data[name];
    const count = { added: 0, newer: 0, kept: 0, same: 0 };
    let value = there;
    if (!own(here, name)) count.added = size(there);
    else if (Array.isArray(there) !== Array.isArray(here[name]) || !plain(here[name]) && !Array.isArray(here[name])) {
      throw new Refusal("progress_err_kind", { where: name });
    } else if (Array.isArray(there)) value = mergeList(here[name], there, count);
    else if (plain(there.items)) {
      if (!plain(here[name].items)) throw new Refusal("progress_err_kind", { where: name });
      value = { ...here[name], items: mergeRecords(here[name].items, there.items, count) };
    } else value = mergeRecords(here[name], there, count);
    return { name, count, value, changed: count.added + count.newer > 0 };
  });
}
