/* The review schedule: Leitner boxes (DESIGN.md, "Review queue"). Pure: no storage, no page
 * (tests/js/schedule.test.js runs it in node); review.js reads the records and writes them.
 *
 * Every answered question sits in a box 1..6 and comes back DAYS[box - 1] days (1, 2, 4, 8,
 * 16, 32) after the local day of its last answer. A right answer (or "I knew it") moves it up
 * one box, a wrong one (or "I didn't know") back to box 1, "Partly" keeps it where it is; a
 * first answer starts from box 1. The schedule is derived, never stored for topic pages: the
 * first answer and the latest retry of a progress record (qbank:v1:progress) give a question
 * its box; review sessions keep their own records (qbank:v1:review: {t, b: box, r or s,
 * n: reviews, ts}). Of the two, the newer one (ts, rts) sets the box. */

import { plain } from "./shapes.js";

export const DAYS = [1, 2, 4, 8, 16, 32]; // box n waits DAYS[n - 1] days
const DAY = 86400000;
const RATED = { know: 1, partly: 0.5, no: 0 };

/** The local calendar day of a time (ms): "today" turns at the reader's midnight. */
export function day(ms) {
  return Math.floor((ms - new Date(ms).getTimezoneOffset() * 60000) / DAY);
}

/** One answer's grade: 1 right / knew it, 0 wrong / didn't know, 0.5 partly; else undefined. */
export function grade(r) {
  if (r.s !== undefined) return RATED[r.s];
  return r.r === 0 || r.r === 1 ? r.r : undefined;
}

/** The box after an answer of grade `g` in box `box`. */
export function step(box, g) {
  if (g === 1) return Math.min(box + 1, DAYS.length);
  return g === 0 ? 1 : box;
}

/** A question's place in the queue from its progress record `a` and review record `v`:
 * {id, t: "field/topic", box, g: latest grade, ts: last answer, due: local day}, or null for
 * a question never answered. */
export function schedule(id, a, v) {
  let s = null;
  if (plain(a) && typeof a.t === "string" && grade(a) !== undefined) {
    s = { id, t: a.t, box: step(1, grade(a)), g: grade(a), ts: Number(a.ts) || 0 };
  }
  const reviewed = plain(v) && typeof v.t === "string" && Number.isInteger(v.b) &&
    v.b >= 1 && v.b <= DAYS.length && typeof v.ts === "number" && grade(v) !== undefined;
  if (reviewed && (!s || v.ts >= s.ts)) s = { id, t: v.t, box: v.b, g: grade(v), ts: v.ts };
  if (s && plain(a) && (a.rr === 0 || a.rr === 1) && typeof a.rts === "number" && a.rts > s.ts) {
    s = { id, t: s.t, box: step(s.box, a.rr), g: a.rr, ts: a.rts }; // a retry on a topic page
  }
  if (s) s.due = day(s.ts) + DAYS[s.box - 1];
  return s;
}

/** Every scheduled question of `progress` and `reviews` (records by id) in `scope`
 * ({fields: [..]}, {field}, {field, topic}), most overdue first. */
export function scheduled(progress, reviews, scope) {
  const ids = new Set([...Object.keys(progress), ...Object.keys(reviews)]);
  const inScope = (t) => {
    const field = t.split("/")[0];
    if (scope.fields) return scope.fields.includes(field);
    if (scope.topic) return t === scope.topic;
    return !scope.field || field === scope.field;
  };
  const list = [];
  for (const id of ids) {
    if (id === "__proto__") continue;
    const s = schedule(id, progress[id], reviews[id]);
    if (s && inScope(s.t)) list.push(s);
  }
  return list.sort((a, b) => a.due - b.due || a.ts - b.ts || (a.id < b.id ? -1 : 1));
}

/** The review record after answering question `id` (of `topic`) with `result` ({r} or {s})
 * at `now`, from its progress record `a` and its review record `v` before; null for a result
 * that is not an answer. */
export function reviewed(id, topic, result, a, v, now) {
  const g = plain(result) ? grade(result) : undefined;
  if (g === undefined) return null;
  const before = schedule(id, a, v);
  const old = plain(v) ? v : {};
  const record = { ...old, t: topic, b: step(before ? before.box : 1, g), n: (Number(old.n) || 0) + 1, ts: now };
  delete record.r;
  delete record.s;
  if (result.s !== undefined) record.s = result.s;
  else record.r = result.r;
  return record;
}
