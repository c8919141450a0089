/* The interface text of the page's locale (site_templates/strings/<locale>.yaml, its "widget"
 * table; keys the locale leaves out are English): a JSON data block the header writes
 * (#qbank-strings), not script. Read again when instant navigation brings another block (the
 * tree of every locale switches locale with the page). Without it (a page qbank's header did
 * not write) a key stands for itself. */

let table = {};
let read = null; // the block `table` came from

export function t(key) {
  const node = document.getElementById("qbank-strings");
  if (node !== read) {
    read = node;
    try {
      table = node ? JSON.parse(node.textContent) || {} : {};
    } catch (error) {
      table = {};
    }
  }
  return key in table ? table[key] : key;
}

/** `text` with each {name} replaced by values[name] (a name it lacks stays as written). */
export function fill(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
}
