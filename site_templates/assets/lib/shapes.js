/* The study state's keys, their shapes and the schema (DESIGN.md, "Study state"). Pure: no
 * storage, no page (tests/js/shapes.test.js runs it in node). lib/storage.js checks every key
 * it reads with `check`; transfer.js checks imported files with it and migrates them. */

import { fromLeitner } from "./leitner.js";

export const PREFIX = "qbank:v1:";
export const PROGRESS = `${PREFIX}progress`;
export const HISTORY = `${PREFIX}practice`;
export const REVIEW = `${PREFIX}review`;
export const SAVED = `${PREFIX}saved`;
export const META = `${PREFIX}meta`;
/* The session clock's settings ({limit: minutes, hidden: bool}): this browser's, not study
 * state (the colon keeps it out of the export file). */
export const TIMER = `${PREFIX}prefs:timer`;

/* The schema the stored state is at: META {"schema": n}, none = 1. MIGRATIONS[n] turns a state
 * {name: value} of schema n into one of n + 1: 1 → 2 the review queue's Leitner boxes to
 * FSRS memory states (lib/leitner.js). */
export const SCHEMA = 2;
export const MIGRATIONS = { 1: fromLeitner };

/** `state` ({name: value}) of schema `from` brought to schema `to` by `steps`. */
export function migrate(state, from, steps = MIGRATIONS, to = SCHEMA) {
  let out = state;
  for (let n = from; n < to; n++) out = steps[n](out);
  return out;
}

export const plain = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

const RATINGS = new Set(["know", "partly", "no"]);

/* Per key: what a stored value is when nothing is stored, and whether a record is readable.
 * Records may carry fields this version does not know. */
const progressRecord = (r) =>
  plain(r) && typeof r.t === "string" && (r.r === undefined || r.r === 0 || r.r === 1) &&
  (r.s === undefined || RATINGS.has(r.s)) && (r.ts === undefined || typeof r.ts === "number");
const historyEntry = (h) => plain(h) && typeof h.field === "string" && typeof h.ts === "number";

const SHAPES = {
  [PROGRESS]: { empty: () => ({}), records: progressRecord },
  [REVIEW]: { empty: () => ({}), records: plain },
  [SAVED]: { empty: () => ({ v: 1, items: {} }), items: plain },
  [HISTORY]: { empty: () => [], list: historyEntry },
  [TIMER]: { empty: () => ({}), records: (v) => typeof v === "number" || typeof v === "boolean" },
};

/** What `key` holds when nothing is stored (a fresh value), or undefined for a key qbank does
 * not know. */
export function empty(key) {
  return SHAPES[key] ? SHAPES[key].empty() : undefined;
}

/** A stored value of `key`: {value: its readable part, whole: whether that is all of it,
 * bad: where the first unreadable part is ("" the whole value, a record's id, a list's
 * index, "items → id")}, or null for a key qbank does not know. */
export function check(key, value) {
  const shape = SHAPES[key];
  if (!shape) return null;
  if (shape.list) {
    if (!Array.isArray(value)) return { value: shape.empty(), whole: false, bad: "" };
    const index = value.findIndex((entry) => !shape.list(entry));
    return { value: value.filter(shape.list), whole: index < 0, bad: index < 0 ? null : String(index) };
  }
  if (shape.items) {
    if (!plain(value) || value.v !== 1 || !plain(value.items)) {
      return { value: shape.empty(), whole: false, bad: plain(value) && "v" in value && value.v !== 1 ? "v" : "" };
    }
    const { value: items, bad } = records(value.items, shape.items);
    return { value: { ...value, items }, whole: bad === null, bad: bad === null ? null : `items → ${bad}` };
  }
  if (!plain(value)) return { value: shape.empty(), whole: false, bad: "" };
  const { value: readable, bad } = records(value, shape.records);
  return { value: readable, whole: bad === null, bad };
}

/** The readable records of an object map, and the id of the first that is not (or null). */
function records(map, readable) {
  const out = {};
  let bad = null;
  for (const [id, record] of Object.entries(map)) {
    if (id !== "__proto__" && readable(record)) out[id] = record;
    else if (bad === null) bad = id;
  }
  return { value: out, bad };
}
