// A session's clock (site_templates/assets/lib/timer.js) and scores (lib/scores.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { byTopic, score } from "../../site_templates/assets/lib/scores.js";
import { crossed, elapsed, expired, extend, left, pause, paused, resume, shown, started, unlimited } from "../../site_templates/assets/lib/timer.js";

const MIN = 60000;

test("a clock counts up without a limit and down with one", () => {
  const free = started(1000);
  assert.equal(elapsed(free, 1000 + 90000), 90000);
  assert.equal(left(free, 5e9), Infinity);
  assert.equal(expired(free, 5e9), false);
  const limited = started(0, 20);
  assert.equal(left(limited, 5 * MIN), 15 * MIN);
  assert.equal(expired(limited, 20 * MIN), true);
});

test("a paused clock stands still; extending and turning the limit off give time back", () => {
  let clock = started(0, 10);
  clock = pause(clock, 4 * MIN);
  assert.equal(paused(clock), true);
  assert.equal(left(clock, 60 * MIN), 6 * MIN);
  clock = resume(clock, 60 * MIN);
  assert.equal(left(clock, 61 * MIN), 5 * MIN);
  assert.equal(left(extend(clock, 5), 61 * MIN), 10 * MIN);
  assert.equal(expired(unlimited(clock), 600 * MIN), false);
  assert.equal(pause(pause(clock, 61 * MIN), 99 * MIN).spent, 5 * MIN); // twice: once
});

test("the time left is announced at five minutes, one minute and twenty seconds, once each", () => {
  const clock = started(0, 10);
  assert.equal(crossed(clock, 4 * MIN, 5 * MIN + 1000), 5 * MIN);
  assert.equal(crossed(clock, 5 * MIN + 1000, 5 * MIN + 2000), null);
  assert.equal(crossed(clock, 9 * MIN - 500, 9 * MIN + 500), MIN);
  assert.equal(crossed(clock, 9 * MIN + 39000, 9 * MIN + 41000), 20000);
  assert.equal(crossed(started(0), 0, 99 * MIN), null);
});

test("times are shown as mm:ss, hours when there are", () => {
  assert.equal(shown(0), "00:00");
  assert.equal(shown(61500), "01:01");
  assert.equal(shown(61500, true), "01:02");
  assert.equal(shown(3723000), "1:02:03");
});

test("a session scores in all and per topic", () => {
  const results = [
    { item: { topic: "ml/a" }, status: "right" },
    { item: { topic: "ml/b" }, status: "wrong" },
    { item: { topic: "ml/a" }, status: "partly" },
    { item: { topic: "ml/b" }, status: "skipped" },
  ];
  assert.deepEqual(score(results), { score: 1.5, total: 4 });
  assert.deepEqual(byTopic(results), [{ topic: "ml/a", score: 1.5, total: 2 }, { topic: "ml/b", score: 0, total: 2 }]);
  assert.deepEqual(byTopic(results, true)[0].topic, "ml/b");
});
