/* The interface text of the page's locale (site_templates/strings/<locale>.yaml, its "widget"
 * table; keys the locale leaves out are English): a module of its own per locale
 * (assets/strings/<locale>.js), which the page's head names (<link id="qbank-strings">) and
 * the browser keeps, so a page carries a link, not the table. Read once per document: an
 * instant navigation stays in the page's locale (a page of another locale is loaded in full:
 * assets/qbank.js). Without the link (a page qbank's head did not write) or without the module
 * a key stands for itself. */

async function load() {
  const link = document.getElementById("qbank-strings");
  if (!link || !link.href) return {};
  try {
    const found = await import(link.href);
    return (found && found.default) || {};
  } catch (error) {
    return {};
  }
}

const table = await load();

export function t(key) {
  return key in table ? table[key] : key;
}

/** `text` with each {name} replaced by values[name] (a name it lacks stays as written). */
export function fill(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
}
