// The review schedule (site_templates/assets/lib/schedule.js): FSRS-6 over ts-fsrs, the
// reader's days; the migration from schema 1's Leitner boxes (lib/leitner.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { DAYS, fromLeitner, leitner } from "../../site_templates/assets/lib/leitner.js";
import { day, missed, rating, reviewed, schedule, scheduled, scheduler } from "../../site_templates/assets/lib/schedule.js";

const NOON = Date.UTC(2026, 0, 10, 12); // a time well inside its local day anywhere
const TODAY = day(NOON);
const HOUR = 3600000;
const DAY = 24 * HOUR;

test("what the reader did gives the grade", () => {
  assert.equal(rating({ r: 0 }), 1); // wrong: Again
  assert.equal(rating({ r: 0, h: 1 }), 1);
  assert.equal(rating({ r: 1, h: 1 }), 2); // right after a hint: Hard
  assert.equal(rating({ r: 1 }), 3); // right: Good
  assert.deepEqual(["no", "partly", "know"].map((s) => rating({ s })), [1, 2, 3]);
  assert.deepEqual([1, 2, 3, 4].map((g) => rating({ g })), [1, 2, 3, 4]); // flashcards
  assert.equal(rating({ g: 5 }), undefined);
  assert.equal(rating({ s: "maybe" }), undefined);
  assert.equal(rating(null), undefined);
});

test("a first answer is a new card's first review: FSRS-6's first intervals", () => {
  const first = (fields) => schedule("a", { t: "ml/x", ts: NOON, ...fields });
  assert.equal(first({ r: 0 }).due, TODAY + 1); // Again: S 0.212
  assert.equal(first({ r: 1, h: 1 }).due, TODAY + 1); // Hard: S 1.2931
  assert.equal(first({ r: 1 }).due, TODAY + 2); // Good: S 2.3065
  assert.equal(first({ r: 1 }).S, 2.3065);
  assert.equal(first({ s: "partly" }).g, 2);
});

test("a review record at least as new as the progress record is the base; a later retry is one more review", () => {
  const answer = { t: "ml/x", r: 1, ts: NOON };
  const record = reviewed("a", "ml/x", { r: 1 }, answer, undefined, NOON + 3 * DAY);
  assert.equal(record.n, 1);
  assert.ok(record.due > TODAY + 3 + 2, "a second right answer waits longer");
  assert.deepEqual(schedule("a", answer, record).due, record.due);
  const retried = { ...answer, rr: 0, rts: NOON + 4 * DAY };
  const s = schedule("a", retried, record);
  assert.deepEqual([s.g, s.due, missed(s)], [1, TODAY + 5, true]);
  assert.ok(s.S < record.S, "a lapse lowers stability");
});

test("records that do not say an answer are not scheduled", () => {
  assert.equal(schedule("a", undefined, undefined), null);
  assert.equal(schedule("a", { t: "ml/x", ts: NOON }), null);
  assert.equal(schedule("a", undefined, { t: "ml/x", S: -1, D: 5, due: 3, ts: NOON }), null);
});

test("the queue holds the scope's questions, most overdue first", () => {
  const progress = {
    late: { t: "ml/x", r: 0, ts: NOON - 5 * DAY },
    soon: { t: "ml/y", r: 1, ts: NOON },
    other: { t: "web/z", r: 0, ts: NOON },
  };
  const order = (scope) => scheduled(progress, {}, scope).map((s) => s.id);
  assert.deepEqual(order({}), ["late", "other", "soon"]);
  assert.deepEqual(order({ field: "ml" }), ["late", "soon"]);
  assert.deepEqual(order({ fields: ["web"] }), ["other"]);
  assert.deepEqual(order({ field: "ml", topic: "ml/y" }), ["soon"]);
  assert.deepEqual(scheduled(JSON.parse('{"__proto__": {"t": "ml/x", "r": 1, "ts": 1}}'), {}, {}), []);
});

test("a review answer makes the next record: memory state, count, result; other fields kept", () => {
  const before = { t: "ml/x", S: 4, D: 5, due: TODAY, s: "no", n: 2, l: 1, ts: NOON - 4 * DAY, note: "kept" };
  const record = reviewed("a", "ml/x", { g: 4 }, undefined, before, NOON);
  assert.deepEqual([record.g, record.n, record.note, record.s], [4, 3, "kept", undefined]);
  assert.ok(record.S > 4 && record.D < 5);
  assert.equal(reviewed("a", "ml/x", { r: 1, h: 1 }, undefined, undefined, NOON).h, 1);
  assert.equal(reviewed("a", "ml/x", { s: "maybe" }, undefined, undefined, NOON), null);
});

test("the day turns at the reader's midnight: a review late at night and one early the next morning are a day apart", () => {
  const evening = new Date(2026, 0, 10, 23, 30).getTime(); // local times
  const morning = new Date(2026, 0, 11, 0, 30).getTime();
  assert.equal(day(morning) - day(evening), 1);
  const record = reviewed("a", "ml/x", { r: 1 }, undefined, undefined, evening);
  const next = reviewed("a", "ml/x", { r: 1 }, undefined, record, morning);
  const sameDay = reviewed("a", "ml/x", { r: 1 }, undefined, record, evening + 10 * 60000);
  assert.notEqual(next.S, sameDay.S); // one day elapsed against a same-day (short-term) review
});

test("Leitner records migrate due on the same day, with FSRS's first difficulty", () => {
  const progress = {
    right: { t: "ml/x", r: 1, ts: NOON },
    retried: { t: "ml/x", r: 0, ts: NOON, rr: 1, rts: NOON + HOUR },
    partly: { t: "ml/x", s: "partly", ts: NOON },
    bare: { t: "ml/x", ts: NOON },
  };
  const review = { boxed: { t: "ml/y", b: 5, r: 1, n: 4, ts: NOON - 3 * DAY, note: "kept" }, odd: 7 };
  const out = fromLeitner({ progress, review, saved: { v: 1, items: {} } });
  assert.deepEqual(out.saved, { v: 1, items: {} });
  assert.equal(out.review.odd, 7); // not a Leitner record: left as it was
  for (const id of ["right", "retried", "partly", "boxed"]) {
    const before = leitner(progress[id], review[id]);
    const after = schedule(id, progress[id], out.review[id]);
    assert.equal(after.due, before.due, id);
    assert.equal(after.S, DAYS[before.box - 1], id);
  }
  assert.equal(out.review.boxed.note, "kept");
  assert.equal(out.review.boxed.b, undefined);
  assert.equal(out.review.right.D, scheduler.init_difficulty(3));
  assert.equal(out.review.partly.D, scheduler.init_difficulty(2));
  assert.equal(out.review.retried.r, 1);
  assert.equal(out.review.bare, undefined);
  assert.equal(schedule("boxed", undefined, out.review.boxed).due, TODAY - 3 + 16);
  assert.deepEqual(fromLeitner({ progress: {} }), { progress: {} });
});

test("interval of stability S at the default retention is S days (what the migration relies on)", () => {
  for (const S of DAYS) assert.equal(scheduler.next_interval(S, 0), S);
});
