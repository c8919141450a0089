/* Schema 1's review queue, Leitner boxes, kept only to bring its records to FSRS (schema 2;
 * DESIGN.md, "Study state"). Pure: no storage, no page.
 *
 * Under schema 1 an answered question sat in a box 1..6 and came back DAYS[box - 1] days after
 * the local day of its last answer: a right answer moved it up one box, a wrong one back to
 * box 1, "Partly" kept it; a first answer started from box 1. The box was derived from the
 * progress record (first answer, then the latest retry) and the review record ({t, b, r or s,
 * n, ts}), the newer of the two setting it. `fromLeitner` gives every such question an FSRS
 * review record due on the same day: stability is the box's interval (at the default 90 %
 * retention FSRS waits as many days as the stability), difficulty FSRS's first one for the
 * last answer's grade. */

import { plain } from "./shapes.js";

export const DAYS = [1, 2, 4, 8, 16, 32];
const DAY = 86400000;
const GRADED = { know: 1, partly: 0.5, no: 0 };
// FSRS-6's default w4, w5: a first answer of rating G has difficulty w4 - e^(w5 (G - 1)) + 1
const W4 = 6.4133;
const W5 = 0.8334;
const FIRST_DIFFICULTY = { 0: W4, 0.5: W4 - Math.exp(W5) + 1, 1: W4 - Math.exp(2 * W5) + 1 };

const localDay = (ms) => Math.floor((ms - new Date(ms).getTimezoneOffset() * 60000) / DAY);

function grade(r) {
  if (r.s !== undefined) return GRADED[r.s];
  return r.r === 0 || r.r === 1 ? r.r : undefined;
}
const step = (box, g) => (g === 1 ? Math.min(box + 1, DAYS.length) : g === 0 ? 1 : box);

/** Schema 1's place of a question: {t, box, g, ts, due: local day}, or null. */
export function leitner(a, v) {
  let s = null;
  if (plain(a) && typeof a.t === "string" && grade(a) !== undefined) {
    s = { t: a.t, box: step(1, grade(a)), g: grade(a), ts: Number(a.ts) || 0 };
  }
  const boxed = plain(v) && typeof v.t === "string" && Number.isInteger(v.b) && v.b >= 1 &&
    v.b <= DAYS.length && typeof v.ts === "number" && grade(v) !== undefined;
  if (boxed && (!s || v.ts >= s.ts)) s = { t: v.t, box: v.b, g: grade(v), ts: v.ts };
  if (s && plain(a) && (a.rr === 0 || a.rr === 1) && typeof a.rts === "number" && a.rts > s.ts) {
    s = { t: s.t, box: step(s.box, a.rr), g: a.rr, ts: a.rts };
  }
  if (s) s.due = localDay(s.ts) + DAYS[s.box - 1];
  return s;
}

/** Schema 1 → 2: a state {name: value} whose review records are FSRS ones, due as before. */
export function fromLeitner(state) {
  const progress = plain(state.progress) ? state.progress : {};
  const reviews = plain(state.review) ? state.review : {};
  const out = {};
  for (const id of new Set([...Object.keys(progress), ...Object.keys(reviews)])) {
    const old = reviews[id];
    const s = id === "__proto__" ? null : leitner(progress[id], old);
    if (!s) {
      if (id in reviews && id !== "__proto__") out[id] = old;
      continue;
    }
    const record = { ...(plain(old) ? old : {}), t: s.t, n: plain(old) ? Number(old.n) || 0 : 0, ts: s.ts,
      S: DAYS[s.box - 1], D: Math.round(FIRST_DIFFICULTY[s.g] * 1e8) / 1e8, due: s.due, l: 0 };
    for (const name of ["b", "r", "s"]) delete record[name];
    if (s.g === 0.5) record.s = "partly";
    else record.r = s.g;
    out[id] = record;
  }
  if (!Object.keys(out).length && !("review" in state)) return state;
  return { ...state, review: out };
}
