// The review schedule (site_templates/assets/lib/schedule.js): Leitner boxes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { DAYS, day, reviewed, schedule, scheduled, step } from "../../site_templates/assets/lib/schedule.js";

const NOON = Date.UTC(2026, 0, 10, 12); // a time well inside its local day anywhere
const TODAY = day(NOON);
const HOUR = 3600000;

test("a right answer moves up one box, a wrong one back to box 1, partly stays", () => {
  assert.equal(step(1, 1), 2);
  assert.equal(step(DAYS.length, 1), DAYS.length);
  assert.equal(step(4, 0), 1);
  assert.equal(step(4, 0.5), 4);
});

test("a first answer starts from box 1: right waits 2 days, wrong 1", () => {
  assert.deepEqual(schedule("a", { t: "ml/x", r: 1, ts: NOON }), { id: "a", t: "ml/x", box: 2, g: 1, ts: NOON, due: TODAY + 2 });
  assert.equal(schedule("a", { t: "ml/x", r: 0, ts: NOON }).due, TODAY + 1);
  assert.equal(schedule("a", { t: "ml/x", s: "partly", ts: NOON }).box, 1);
});

test("the newer of the progress and review records sets the box; a later retry moves it", () => {
  const answer = { t: "ml/x", r: 1, ts: NOON };
  const review = { t: "ml/x", b: 5, r: 1, ts: NOON + HOUR };
  assert.equal(schedule("a", answer, review).box, 5);
  assert.equal(schedule("a", { ...answer, ts: NOON + 2 * HOUR }, review).box, 2);
  const retried = { ...answer, rr: 0, rts: NOON + 2 * HOUR };
  assert.deepEqual([schedule("a", retried, review).box, schedule("a", retried, review).g], [1, 0]);
});

test("records that do not say an answer are not scheduled", () => {
  assert.equal(schedule("a", undefined, undefined), null);
  assert.equal(schedule("a", { t: "ml/x", ts: NOON }), null);
  assert.equal(schedule("a", undefined, { t: "ml/x", b: 9, r: 1, ts: NOON }), null);
});

test("the queue holds the scope's questions, most overdue first", () => {
  const progress = {
    late: { t: "ml/x", r: 0, ts: NOON - 5 * 24 * HOUR },
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

test("a review answer makes the next record: box from the schedule, count, result", () => {
  const before = { t: "ml/x", b: 3, s: "no", n: 2, ts: NOON, note: "kept" };
  const record = reviewed("a", "ml/x", { r: 1 }, { t: "ml/x", r: 0, ts: NOON - HOUR }, before, NOON + HOUR);
  assert.deepEqual(record, { t: "ml/x", b: 4, r: 1, n: 3, ts: NOON + HOUR, note: "kept" });
  assert.equal(reviewed("a", "ml/x", { s: "no" }, undefined, undefined, NOON).b, 1);
  assert.equal(reviewed("a", "ml/x", { s: "maybe" }, undefined, undefined, NOON), null);
});
