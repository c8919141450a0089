/* Where the reader stands on a question, and the days they studied. Pure (tests/js/
 * mastery.test.mjs); widget.js shows the standing on every question, the home page the days.
 *
 * The latest answer tells where the reader stands, whichever page it was given on: the
 * first answer and the latest retry of a topic page (qbank:v1:progress: r at ts, rr at rts),
 * the latest review, exam or flashcard (qbank:v1:review: r, s or g at ts). A right retry on
 * the day of the miss it follows is not evidence (the page had just shown the answer): the
 * miss stands until a later day's answer. A question whose latest answer was right and whose
 * review record holds a stability of MATURE days or more is mastered. */

import { GOOD, AGAIN, day, rating } from "./grades.js";
import { plain } from "./shapes.js";

export const MATURE = 21; // days of stability (Anki calls such a card "mature")
const CARD_WORDS = ["", "no", "partly", "know", "know"]; // a flashcard's grade as a rating word

function answers(a, v) {
  const found = [];
  if (plain(a) && rating(a) !== undefined) {
    found.push({ r: a.r, s: a.s, h: a.h, ts: Number(a.ts) || 0 });
    if ((a.rr === 0 || a.rr === 1) && typeof a.rts === "number") {
      found.push({ r: a.rr, h: a.rh, ts: a.rts, retry: true });
    }
  }
  if (plain(v) && typeof v.ts === "number" && rating(v) !== undefined) {
    found.push({ r: v.r, s: v.s, g: v.g, h: v.h, ts: v.ts });
  }
  return found.sort((x, y) => x.ts - y.ts);
}

/** The standing of a question from its progress record `a` and review record `v`: null
 * (never answered) or {state, word}: state "mastered", "relearned" (right after a miss),
 * "right", "wrong" or "rated" (a self-assessment or flashcard grade, its word: know, partly,
 * no). */
export function standing(a, v) {
  let latest = null;
  let missed = false;
  for (const answer of answers(a, v)) {
    const sameDayRetry = answer.retry && latest && rating(latest) === AGAIN &&
      day(answer.ts) === day(latest.ts);
    if (sameDayRetry) continue;
    if (latest && rating(latest) === AGAIN) missed = true;
    latest = answer;
  }
  if (!latest) return null;
  const grade = rating(latest);
  if (grade >= GOOD && plain(v) && typeof v.S === "number" && v.S >= MATURE) {
    return { state: "mastered", word: "mastered" };
  }
  if (latest.s !== undefined || latest.g !== undefined) {
    return { state: "rated", word: latest.s !== undefined ? latest.s : CARD_WORDS[latest.g] };
  }
  if (latest.r === 1) return missed ? { state: "relearned", word: "relearned" } : { state: "right", word: "right" };
  return { state: "wrong", word: "wrong" };
}

/** The reader's study days from every answer's time in `progress` and `reviews` (records
 * by id) at `now`: {today: questions answered today, streak: days in a row with an answer,
 * up to today or, while nothing is answered yet today, up to yesterday}. */
export function studyDays(progress, reviews, now) {
  const days = new Set();
  const todays = new Set();
  const today = day(now);
  const seen = (id, ts) => {
    if (typeof ts !== "number" || !ts) return;
    days.add(day(ts));
    if (day(ts) === today) todays.add(id);
  };
  for (const [id, a] of Object.entries(progress || {})) {
    if (!plain(a)) continue;
    seen(id, a.ts);
    seen(id, a.rts);
  }
  for (const [id, v] of Object.entries(reviews || {})) {
    if (plain(v)) seen(id, v.ts);
  }
  let streak = 0;
  for (let d = days.has(today) ? today : today - 1; days.has(d); d--) streak++;
  return { today: todays.size, streak };
}
