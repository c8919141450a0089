/* Where the site is and when its pages come. The widget's modules live in <root>/assets/, so
 * the site root is the folder above them, whatever page (a locale's, the 404 page with
 * root-relative links) imported them. Material's instant navigation swaps pages inside one
 * document: a module is evaluated once per document, and page work runs once per page through
 * `everyPage`. */

export const root = new URL("../../", import.meta.url); // (this file: <root>/assets/lib/site.js)

/** Runs `work` for the page once it is parsed, and again after every instant navigation
 * (Material's document$, which replays the current page to a new subscriber; without the
 * theme's bundle, once). */
export function everyPage(work) {
  const start = () => {
    const pages = window.document$;
    if (pages && typeof pages.subscribe === "function") pages.subscribe(() => work());
    else work();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}

/** Runs `work` when the browser is idle (its deadline as argument), else soon. */
export function whenIdle(work) {
  if (window.requestIdleCallback) window.requestIdleCallback(work);
  else setTimeout(work, 50);
}

const files = new Map(); // "<how> <URL>" → Promise of its JSON or text

function fetched(url, how) {
  const key = `${how} ${url}`;
  if (!files.has(key)) {
    const loading = fetch(String(url)).then((response) => {
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return response[how]();
    });
    loading.catch(() => files.delete(key));
    files.set(key, loading);
  }
  return files.get(key);
}

/** The JSON at `url`, fetched once per document; a failed fetch is tried again next time. */
export const json = (url) => fetched(url, "json");

/** The text at `url` (a page of the site), fetched as `json` is. */
export const text = (url) => fetched(url, "text");
