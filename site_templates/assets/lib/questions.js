/* The practice data (qbank.site.practice), the one reader of it for practice.js, review.js
 * and flashcards.js: per locale, field and seniority a list of the questions
 * (<locale>/api/practice/<field>/<seniority>.json: ids, topics, chunk numbers) and their
 * texts in chunks (<seniority>/<n>.json). A list gives stubs {id, topic, field, level,
 * file} (file: the URL of its chunk); `texts` fetches the chunks of the stubs asked for,
 * each once per document (lib/site.js's `json`). */
import { json, root } from "./site.js";

function url(path) {
  return new URL(path, root).href;
}

/** The stubs of `field`'s questions at `level` in `locale`, in display order. */
export function listed(locale, field, level) {
  const base = `${locale}/api/practice/${encodeURIComponent(field)}/${encodeURIComponent(level)}`;
  return json(url(`${base}.json`)).then((data) => {
    const topics = data.topics || [];
    return (data.questions || []).map(([id, topic, chunk]) => ({
      id, topic: topics[topic], field, level, file: url(`${base}/${chunk}.json`),
    }));
  });
}

/** The stubs of every `fields` × `levels` list of `locale`, each id once (its first list);
 * with `lenient` a list that cannot be read counts as empty instead of failing. */
export function listedAll(locale, fields, levels, lenient = false) {
  const lists = fields.flatMap((f) => levels.map((l) => {
    const found = listed(locale, f, l);
    return lenient ? found.catch(() => []) : found;
  }));
  return Promise.all(lists).then((all) => {
    const seen = new Set();
    return all.flat().filter((stub) => !seen.has(stub.id) && seen.add(stub.id));
  });
}

/** The questions (practice JSON items: id, kind, topic, prompt, options, answer, …) of
 * `stubs`, in their order, from their chunks; a question its chunk lacks is left out. */
export function texts(stubs) {
  const files = [...new Set(stubs.map((stub) => stub.file))];
  return Promise.all(files.map(json)).then((chunks) => {
    const byId = new Map();
    for (const chunk of chunks) for (const q of chunk.questions || []) byId.set(q.id, q);
    return stubs.map((stub) => byId.get(stub.id)).filter(Boolean);
  });
}
