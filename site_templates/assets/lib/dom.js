/* Building the widget's elements. Interface and stored text only ever goes through
 * textContent and attributes; question HTML (sanitized at build time) is parsed inertly and
 * adopted (fragment), never assigned to innerHTML. */

/** A `tag` element with `attributes` ({name: value}, or null) and `text` as its text. */
export function h(tag, attributes, text) {
  const node = document.createElement(tag);
  if (attributes) for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text != null) node.textContent = text;
  return node;
}

const DROPPED = "script,style,iframe,object,embed,form,link,meta,base";

/** Question HTML from a practice JSON file as nodes: sanitized by the build, parsed inertly
 * here and checked once more, so a hand-edited file cannot run script. */
export function fragment(html) {
  const doc = new DOMParser().parseFromString(`<body>${html || ""}`, "text/html");
  for (const node of doc.body.querySelectorAll(DROPPED)) node.remove();
  for (const node of doc.body.querySelectorAll("*")) {
    for (const attribute of [...node.attributes]) {
      const value = attribute.value.replace(/\s+/g, "").toLowerCase();
      if (/^on/i.test(attribute.name) || /^(javascript|data|vbscript):/.test(value)) {
        node.removeAttribute(attribute.name);
      }
    }
  }
  const nodes = document.createDocumentFragment();
  while (doc.body.firstChild) nodes.append(document.adoptNode(doc.body.firstChild));
  copyButtons(nodes);
  return nodes;
}

let codes = 0;
/** Material's copy button on each code block of `nodes` when the site asks for them
 * (content.code.copy): Material mounts its own only on the code a page loads with, and its
 * clipboard handler, delegated, serves a button added later. */
function copyButtons(nodes) {
  const config = document.getElementById("__config");
  if (!config) return;
  let settings;
  try {
    settings = JSON.parse(config.textContent);
  } catch {
    return;
  }
  if (!(settings.features || []).includes("content.code.copy")) return;
  const title = (settings.translations || {})["clipboard.copy"] || "Copy to clipboard";
  for (const pre of nodes.querySelectorAll("div.highlight > pre")) {
    const code = pre.querySelector(":scope > code");
    if (!code || pre.closest(".no-copy") || pre.querySelector(".md-code__nav")) continue;
    if (!pre.id) pre.id = "__code_qb-" + ++codes;
    const nav = h("nav", { class: "md-code__nav" });
    nav.appendChild(h("button", { class: "md-code__button", title, type: "button",
      "data-clipboard-target": "#" + pre.id + " > code", "data-md-type": "copy" }));
    pre.insertBefore(nav, code);
  }
}

let made = 0;
/** The node's id, given one unique in the page when it has none (for aria references). */
export function idFor(node) {
  if (!node.id) node.id = `qb-${++made}-${Math.random().toString(36).slice(2, 7)}`;
  return node.id;
}

const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";

/** Names an option's `control` by `parts` (its key and its text, in order): assistive
 * technology then hears the option once, as the control, and the parts are hidden from it
 * (it read them a second time after the control), unless one holds something to focus. */
export function nameOption(control, parts) {
  const shown = parts.filter(Boolean);
  control.setAttribute("aria-labelledby", shown.map(idFor).join(" "));
  for (const part of shown) {
    if (!part.contains(control) && !part.querySelector(FOCUSABLE)) part.setAttribute("aria-hidden", "true");
  }
}
