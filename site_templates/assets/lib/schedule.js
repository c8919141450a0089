/* The review schedule: FSRS-6 with its default parameters (DESIGN.md, "The review queue").
 * Pure: no storage, no page (tests/js/schedule.test.mjs runs it in node, and
 * tests/test_fsrs_parity.py against py-fsrs); review.js reads the records and writes them.
 *
 * The memory model and intervals are ts-fsrs's (vendor/ts-fsrs.js: next_state, next_interval)
 * without learning steps and without fuzz: a question comes back after whole days, the same
 * ones py-fsrs gives. Days are the reader's calendar days ("today" turns at their midnight).
 *
 * What the reader did gives the grade (`rating`): wrong or "I didn't know" Again, right after
 * a hint or "Partly" Hard, right or "I knew it" Good; a flashcard's own rating (g: 1..4) as
 * it is. A pick after the answer was shown, with no attempt before, is stored as a wrong
 * first answer (Again: it was not known).
 *
 * The schedule is derived, never stored, for topic pages: a progress record's first answer
 * (qbank:v1:progress, at ts) is a new card's first review and its latest retry (rr at rts)
 * one more. Review sessions, exams and flashcards keep their own records (qbank:v1:review):
 * {t, r or s or g (the last result), n: reviews, ts: last review, S: stability, D:
 * difficulty, due: local day, l: lapses}. Of the two, the newer one (ts) is the base; a
 * topic-page retry after it is one more review. */

import { Rating, fsrs } from "../vendor/ts-fsrs.js";
import { day, rating } from "./grades.js";
import { plain } from "./shapes.js";

export { day, rating };

export const scheduler = fsrs({
  enable_fuzz: false,
  enable_short_term: true, // same-day repeats use FSRS-6's short-term stability (as py-fsrs)
  learning_steps: [],
  relearning_steps: [],
});

/** A memory state after one review of `rated` at `ms`, from `before` ({S, D, ts, n, l}
 * or null for a question never reviewed): {S, D, ts, n, l, due: local day}. The days since
 * the last review are the reader's calendar days; the interval is FSRS's for the new
 * stability (no ordering of Hard < Good < Easy intervals: py-fsrs has none either). */
export function review(before, rated, ms) {
  const elapsed = before ? Math.max(0, day(ms) - day(before.ts)) : 0;
  const next = scheduler.next_state(before ? { stability: before.S, difficulty: before.D } : null, elapsed, rated);
  const lapsed = before && rated === Rating.Again ? 1 : 0;
  return { S: next.stability, D: next.difficulty, ts: ms, n: (before ? before.n : 0) + 1,
    l: (before ? before.l : 0) + lapsed, due: day(ms) + scheduler.next_interval(next.stability, elapsed) };
}

/* A review record's memory state, if it has a readable one. */
function memory(v) {
  const ok = plain(v) && typeof v.t === "string" && typeof v.ts === "number" && typeof v.S === "number" &&
    v.S > 0 && typeof v.D === "number" && v.D >= 1 && v.D <= 10 && Number.isInteger(v.due);
  return ok ? { S: v.S, D: v.D, ts: v.ts, n: Number(v.n) || 0, l: Number(v.l) || 0, due: v.due } : null;
}

/** A question's place in the queue from its progress record `a` and review record `v`:
 * {id, t: "field/topic", g: latest rating, ts: last answer, due: local day, S, D, n, l}, or
 * null for a question never answered. */
export function schedule(id, a, v) {
  let s = null;
  const first = plain(a) && typeof a.t === "string" ? rating(a) : undefined;
  const ts = plain(a) ? Number(a.ts) || 0 : 0;
  const stored = memory(v);
  if (stored && (first === undefined || stored.ts >= ts)) {
    s = { id, t: v.t, g: rating(v) ?? Rating.Good, ...stored };
  } else if (first !== undefined) {
    s = { id, t: a.t, g: first, ...review(null, first, ts) };
  }
  if (s && plain(a) && (a.rr === 0 || a.rr === 1) && typeof a.rts === "number" && a.rts > s.ts) {
    const again = rating({ r: a.rr, h: a.rh });
    s = { id, t: s.t, g: again, ...review(s, again, a.rts) }; // a retry on a topic page
  }
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

/** The review record after answering question `id` (of `topic`) with `result` ({r, h}, {s}
 * or {g}) at `now`, from its progress record `a` and its review record `v` before; null for
 * a result that is not an answer. */
export function reviewed(id, topic, result, a, v, now) {
  const rated = rating(result);
  if (rated === undefined) return null;
  const before = schedule(id, a, v);
  const old = plain(v) ? v : {};
  const next = review(before, rated, now);
  const record = { ...old, t: topic, n: (Number(old.n) || 0) + 1, ts: now, S: next.S, D: next.D, due: next.due,
    l: next.l };
  for (const name of ["r", "s", "g", "h", "b"]) delete record[name];
  if (result.g !== undefined) record.g = result.g;
  else if (result.s !== undefined) record.s = result.s;
  else record.r = result.r;
  if (result.h) record.h = 1;
  return record;
}

/** Whether a scheduled question's latest answer was a miss (Again). */
export const missed = (s) => s.g === Rating.Again;
