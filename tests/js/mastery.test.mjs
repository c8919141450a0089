// Where the reader stands on a question and their study days
// (site_templates/assets/lib/mastery.js): the latest answer counts, wherever it was given.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MATURE, standing, studyDays } from "../../site_templates/assets/lib/mastery.js";

const NOON = Date.UTC(2026, 0, 10, 12);
const HOUR = 3600000;
const DAY = 24 * HOUR;
const state = (a, v) => (standing(a, v) || {}).state;

test("never answered: no standing", () => {
  assert.equal(standing(undefined, undefined), null);
  assert.equal(standing({ t: "f/t" }, {}), null);
});

test("a first answer stands until a later one", () => {
  assert.equal(state({ t: "f/t", r: 1, ts: NOON }), "right");
  assert.equal(state({ t: "f/t", r: 0, ts: NOON }), "wrong");
  assert.deepEqual(standing({ t: "f/t", s: "partly", ts: NOON }), { state: "rated", word: "partly" });
});

test("a right retry the same day as the miss is not evidence; a later day's is", () => {
  const miss = { t: "f/t", r: 0, ts: NOON };
  assert.equal(state({ ...miss, rr: 1, rts: NOON + HOUR }), "wrong");
  assert.equal(state({ ...miss, rr: 1, rts: NOON + DAY }), "relearned");
  assert.equal(state({ t: "f/t", r: 1, ts: NOON, rr: 0, rts: NOON + DAY }), "wrong");
});

test("a review after the miss counts, and a long stability is mastery", () => {
  const miss = { t: "f/t", r: 0, ts: NOON };
  const reviewed = { t: "f/t", r: 1, ts: NOON + 2 * DAY, S: 3, D: 5, due: 1, n: 1 };
  assert.equal(state(miss, reviewed), "relearned");
  assert.equal(state(miss, { ...reviewed, S: MATURE }), "mastered");
  assert.equal(state(miss, { ...reviewed, r: 0, S: MATURE }), "wrong"); // latest wrong
  assert.deepEqual(standing(miss, { t: "f/t", g: 1, ts: NOON + DAY, S: 1, D: 5, due: 1 }),
    { state: "rated", word: "no" });
  // an older review than the page's retry: the retry is the latest
  assert.equal(state({ ...miss, ts: NOON + DAY, rr: 1, rts: NOON + 3 * DAY }, reviewed), "relearned");
});

test("study days: today's answers and the days in a row", () => {
  const progress = {
    a: { t: "f/t", r: 1, ts: NOON },
    b: { t: "f/t", r: 0, ts: NOON - DAY, rr: 1, rts: NOON - 2 * DAY },
    c: { t: "f/t", r: 1, ts: NOON - 5 * DAY },
  };
  assert.deepEqual(studyDays(progress, {}, NOON), { today: 1, streak: 3 });
  assert.deepEqual(studyDays(progress, {}, NOON + DAY), { today: 0, streak: 3 }); // not broken yet
  assert.deepEqual(studyDays(progress, {}, NOON + 2 * DAY), { today: 0, streak: 0 });
  assert.deepEqual(studyDays({}, { d: { t: "f/t", ts: NOON, S: 1 } }, NOON), { today: 1, streak: 1 });
  assert.deepEqual(studyDays({}, {}, NOON), { today: 0, streak: 0 });
});
