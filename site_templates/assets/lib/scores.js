/* A finished session's score, in all and per topic (practice and exam summaries). Pure
 * (tests/js/scores.test.mjs). A result is {item: {topic}, status}: right and "I knew it"
 * count 1, "Partly" 0.5, anything else (wrong, skipped, not reached) 0. */

const POINTS = { right: 1, know: 1, partly: 0.5 };

export const points = (status) => POINTS[status] || 0;

/** {score, total} of `results`. */
export function score(results) {
  return { score: results.reduce((sum, r) => sum + points(r.status), 0), total: results.length };
}

/** [{topic, score, total}] per topic, in the order topics first appear, weakest first when
 * `weakest`. */
export function byTopic(results, weakest = false) {
  const topics = new Map();
  for (const r of results) {
    const row = topics.get(r.item.topic) || { topic: r.item.topic, score: 0, total: 0 };
    row.score += points(r.status);
    row.total += 1;
    topics.set(r.item.topic, row);
  }
  const rows = [...topics.values()];
  return weakest ? rows.sort((a, b) => a.score / a.total - b.score / b.total) : rows;
}
