/* qbank "Your progress": the progress page's part (<locale>/progress/), mounted by qbank.js
 * there only.
 *
 * Takes the whole study state of this browser (every localStorage key "qbank:v1:<name>":
 * answers, practice history, bookmarks and notes, the review schedule, and any key a later
 * release adds) to another device, as a file or as a link whose fragment holds the same file
 * deflated (CompressionStream "deflate-raw", base64url; a fragment is never sent to a server).
 * Reading a file and merging it is lib/merge.js (pure); importing shows what would change,
 * per kind, and stores nothing until the reader confirms (lib/storage.js: all or nothing).
 * Set-aside copies ("<key>:damaged:<ms>") are never exported. No stored text goes through
 * innerHTML.
 */
import { h } from "./lib/dom.js";
import { BIGGEST, Refusal, exported, plan, read } from "./lib/merge.js";
import { META } from "./lib/shapes.js";
import { offer, state, storeAll } from "./lib/storage.js";
import { fill } from "./lib/text.js";

const LINK = "#import=";

function base64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function pack(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return base64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** Whether this browser compresses "deflate-raw" (Chromium 103, Firefox 113, Safari 16.4). */
function deflates() {
  try {
    return Boolean(new CompressionStream("deflate-raw") && new DecompressionStream("deflate-raw"));
  } catch (error) {
    return false;
  }
}

async function unpack(code) {
  if (!deflates()) throw new Refusal("progress_err_browser");
  try {
    const binary = atob(code.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return await new Response(stream).text();
  } catch (error) {
    throw new Refusal("progress_err_link");
  }
}

// -- the page -----------------------------------------------------------------------------
class Transfer {
  constructor(box) {
    this.box = box;
    this.text = JSON.parse(box.getAttribute("data-strings") || "{}");
    this.status = box.querySelector(".qb-transfer__status");
    this.preview = box.querySelector(".qb-transfer__preview");
    this.link = box.querySelector(".qb-transfer__link");
    for (const node of box.querySelectorAll("[data-needs-js]")) node.hidden = false;
    box.querySelector(".qb-transfer__download").addEventListener("click", () => this.download());
    const copy = box.querySelector(".qb-transfer__copy");
    copy.addEventListener("click", () => this.copy());
    copy.hidden = !deflates(); // the file still works
    const input = box.querySelector(".qb-transfer__file");
    const chosen = () => {
      const file = input.files && input.files[0];
      input.value = "";
      if (file) this.attempt(() => (file.size > BIGGEST ? Promise.reject(new Refusal("progress_err_big")) : file.text()));
    };
    input.addEventListener("change", chosen);
    this.fromLink();
    // a file picked while this module was still loading (the box shows before it mounts)
    if (input.files && input.files.length) chosen();
  }

  say(key, values, alert) {
    this.status.replaceChildren(fill(this.text[key] || key, values || {}));
    this.status.setAttribute("data-kind", alert ? "error" : "ok");
  }

  async download() {
    const data = state();
    const file = exported(data.data, new Date().toISOString());
    const name = `qbank-study-${file.exported.slice(0, 10)}.json`;
    offer(name, JSON.stringify(file, null, 1));
    this.say("progress_downloaded", { name });
    this.leftOut(data.unreadable);
  }

  async copy() {
    const data = state();
    const url = location.href.split("#")[0] + LINK + (await pack(JSON.stringify(exported(data.data, new Date().toISOString()))));
    this.link.value = url;
    this.link.closest("[hidden]")?.removeAttribute("hidden");
    try {
      await navigator.clipboard.writeText(url);
      this.say("progress_copied", { n: url.length });
    } catch (error) {
      this.link.focus();
      this.link.select();
      this.say("progress_copy_failed");
    }
    this.leftOut(data.unreadable);
  }

  leftOut(unreadable) {
    if (!unreadable.length) return;
    this.status.append(" ", fill(this.text.progress_unreadable, { names: unreadable.join(", ") }));
  }

  fromLink() {
    if (location.hash.startsWith(LINK)) this.attempt(() => unpack(location.hash.slice(LINK.length)));
  }

  forgetLink() {
    if (location.hash.startsWith(LINK)) history.replaceState(history.state, "", location.href.split("#")[0]);
  }

  /** Reads a text from `source` (a promise), checks it and shows what it would change. */
  async attempt(source) {
    this.preview.replaceChildren();
    this.preview.hidden = true;
    try {
      const data = read(await source());
      this.show(data, plan(state().data, data));
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      this.forgetLink();
      this.say(error.key, error.values, true);
    }
  }

  show(data, rows) {
    const t = this.text;
    const table = h("table"); // no class: Material's table style
    const wrap = h("div", { class: "qb-transfer__table" });
    wrap.append(table);
    const head = h("tr");
    for (const key of ["progress_kind", "progress_new", "progress_newer", "progress_kept", "progress_same"]) {
      head.append(h("th", { scope: "col" }, t[key]));
    }
    table.append(h("thead"), h("tbody"));
    table.tHead.append(head);
    for (const row of rows) {
      const tr = h("tr", { "data-kind": row.name });
      tr.append(h("th", { scope: "row" }, t[`progress_kind_${row.name}`] || row.name));
      for (const n of ["added", "newer", "kept", "same"]) tr.append(h("td", { "data-count": n }, String(row.count[n])));
      table.tBodies[0].append(tr);
    }
    const changes = rows.some((row) => row.changed);
    const actions = h("p", { class: "qb-transfer__actions" });
    if (changes) {
      const go = h("button", { type: "button", class: "qb-transfer__apply qb-primary" }, t.progress_apply);
      go.addEventListener("click", () => this.confirm(data));
      actions.append(go, " ");
    }
    const cancel = h("button", { type: "button", class: "qb-transfer__cancel" }, t.progress_cancel);
    cancel.addEventListener("click", () => this.close("progress_cancelled"));
    actions.append(cancel);
    this.preview.append(h("p", {}, t.progress_preview), wrap, actions);
    this.preview.hidden = false;
    if (changes) this.status.replaceChildren(); // the focused button names the next step
    else this.say("progress_nothing");
    (actions.querySelector(".qb-transfer__apply") || cancel).focus();
  }

  confirm(data) {
    try {
      const rows = plan(state().data, data); // again: another tab may have written since the preview
      store(rows);
      const n = rows.reduce((sum, row) => sum + row.count.added + row.count.newer, 0);
      this.close("progress_done", { n });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      this.close(error.key, error.values, true);
    }
  }

  close(key, values, alert) {
    this.preview.replaceChildren();
    this.preview.hidden = true;
    this.forgetLink();
    this.say(key, values, alert);
  }
}

function usable() {
  try {
    localStorage.getItem(META);
    return true;
  } catch (error) {
    return false; // storage blocked: the page keeps its "needs storage" text
  }
}

/** Stores the changed kinds of an import plan; all or nothing. */
function store(rows) {
  try {
    storeAll(Object.fromEntries(rows.filter((r) => r.changed).map((r) => [r.name, r.value])));
  } catch (error) {
    throw new Refusal("progress_err_full");
  }
}

// A link pasted into the address bar of the open page only changes the fragment.
window.addEventListener("hashchange", () => {
  const box = document.querySelector(".qb-transfer");
  if (box && box.qbTransfer) box.qbTransfer.fromLink();
});

/** The progress page's part: its download, link and import. */
export function mount() {
  for (const box of document.querySelectorAll(".qb-transfer")) {
    if (box.qbTransfer) continue;
    if (usable()) box.qbTransfer = new Transfer(box);
    else box.querySelector(".qb-transfer__blocked").hidden = false;
  }
}
