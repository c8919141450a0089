/* qbank "Your progress": loaded by the progress page only (<locale>/progress/).
 *
 * Takes the whole study state of this browser (every localStorage key "qbank:v1:<name>":
 * answers, practice history, bookmarks and notes, the review schedule, and any key a later
 * release adds) to another device, as a file or as a link whose fragment holds the same file
 * deflated (CompressionStream "deflate-raw", base64url; a fragment is never sent to a server).
 * The format is in DESIGN.md ("Study state"). Importing shows what would change, per kind,
 * and stores nothing until the reader confirms; then, per record, the newer one wins (a
 * record's time is the largest of its numeric ts, rts and t), lists are joined without
 * duplicates, and nothing here is deleted. A file or link that cannot be read, is not one of
 * ours, or was made by a newer release is refused with the reason, and storage is untouched.
 * Set-aside copies ("<key>:damaged:<ms>", "<key>:unreadable") are never exported. The file
 * the widget's storage notice downloads (qbank.js, exportStorage) can be imported too.
 * Schema, migrations and the shape checks of the widget's own keys come from qbank.js
 * (window.qbankStorage). No stored text goes through innerHTML.
 */
(() => {
  "use strict";

  const FORMAT = "qbank-study-state";
  const VERSION = 1; // of the file format; the storage schema travels beside it
  const PREFIX = "qbank:v1:";
  const NAME = /^[a-z][a-z0-9_-]*$/; // set-aside copies have a colon more: never state
  const META = "meta";
  const LINK = "#import=";
  const BIGGEST = 50 * 1024 * 1024; // characters: no study state comes near it
  const TIMES = ["ts", "rts", "t"]; // fields giving a record's time (ms), where numbers

  const plain = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const storage = () => window.qbankStorage;

  /** A reason to refuse an import: a strings key and the values its text needs. */
  class Refusal extends Error {
    constructor(key, values) {
      super(key);
      this.key = key;
      this.values = values || {};
    }
  }

  function fill(text, values) {
    return String(text).replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
  }

  function element(tag, attributes, content) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
    if (content !== undefined) node.textContent = content;
    return node;
  }

  // -- the state of this browser ------------------------------------------------------------
  function names() {
    return Object.keys(localStorage)
      .filter((key) => key.startsWith(PREFIX))
      .map((key) => key.slice(PREFIX.length))
      .filter((name) => NAME.test(name) && name !== META)
      .sort();
  }

  /** {data: {name: parsed value}, unreadable: [names]} */
  function current() {
    const data = {};
    const unreadable = [];
    for (const name of names()) {
      try {
        data[name] = JSON.parse(localStorage.getItem(PREFIX + name));
      } catch (error) {
        unreadable.push(name);
      }
    }
    return { data, unreadable };
  }

  function exported(data) {
    return {
      format: FORMAT,
      version: VERSION,
      schema: storage().schema,
      exported: new Date().toISOString(),
      data,
    };
  }

  // -- reading a file or a link -------------------------------------------------------------
  /** Whether a text that is not JSON stops inside a string or an open object or array. */
  function cutShort(text) {
    let depth = 0;
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c === "\\") i++;
        else if (c === '"') quoted = false;
      } else if (c === '"') quoted = true;
      else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") depth--;
    }
    return quoted || depth > 0;
  }

  /** The check of one kind's data: null when it is fine, else where it is not. */
  function damage(name, value) {
    const where = (id) => (id === undefined ? name : `${name} → ${id}`);
    const own = storage().check(PREFIX + name, value);
    if (own) {
      if (own.whole) return null;
      if (Array.isArray(value)) return where(String(value.findIndex((v) => !own.value.includes(v))));
      if (!plain(value)) return where();
      return where(Object.keys(value).find((id) => !(id in own.value)));
    }
    if (Array.isArray(value)) return null;
    if (!plain(value)) return where();
    const records = plain(value.items) ? value.items : value;
    if (value === records && "items" in value) return where("items");
    const bad = Object.keys(records).find((id) => id === "__proto__" || !plain(records[id]));
    return bad === undefined ? null : where(bad);
  }

  /** The download the widget's storage notice offers (qbank.js, exportStorage): what could
   * be read of each key, as `readable` {key: value or null}; schema 1. */
  function rescued(file) {
    return plain(file) && !("format" in file) && typeof file.exported === "string" && plain(file.readable);
  }

  function fromRescue(file) {
    const data = {};
    for (const [key, value] of Object.entries(file.readable)) {
      if (key.startsWith(PREFIX) && value !== null) data[key.slice(PREFIX.length)] = value;
    }
    return { format: FORMAT, version: VERSION, schema: 1, exported: file.exported, data };
  }

  /** A file's text → its data at this release's schema, or a Refusal. */
  function read(text) {
    if (text.length > BIGGEST) throw new Refusal("progress_err_big");
    let file;
    try {
      file = JSON.parse(text);
    } catch (error) {
      throw new Refusal(cutShort(text) ? "progress_err_cut" : "progress_err_json");
    }
    if (rescued(file)) file = fromRescue(file);
    if (!plain(file) || file.format !== FORMAT) throw new Refusal("progress_err_foreign");
    const ours = storage().schema;
    if (!Number.isInteger(file.version) || !Number.isInteger(file.schema) || file.schema < 1 ||
        !plain(file.data)) {
      throw new Refusal("progress_err_fields");
    }
    if (file.version > VERSION || file.schema > ours) {
      throw new Refusal("progress_err_newer", { version: file.version, schema: file.schema, ours });
    }
    for (const name of Object.keys(file.data)) {
      if (!NAME.test(name) || name === META) throw new Refusal("progress_err_entry", { where: name });
      const where = damage(name, file.data[name]);
      if (where) throw new Refusal("progress_err_entry", { where });
    }
    return storage().migrate(file.data, file.schema);
  }

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

  // -- merging ------------------------------------------------------------------------------
  function time(record) {
    return plain(record) ? Math.max(0, ...TIMES.map((k) => (typeof record[k] === "number" ? record[k] : 0))) : 0;
  }

  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  function mergeRecords(here, there, count) {
    const out = { ...here };
    for (const [id, record] of Object.entries(there)) {
      if (!Object.prototype.hasOwnProperty.call(here, id)) {
        out[id] = record;
        count.added++;
      } else if (same(here[id], record)) count.same++;
      else if (time(record) > time(here[id])) {
        out[id] = record;
        count.newer++;
      } else count.kept++;
    }
    return out;
  }

  function mergeList(here, there, count) {
    const seen = new Set(here.map((entry) => JSON.stringify(entry)));
    const out = here.slice();
    for (const entry of there) {
      const text = JSON.stringify(entry);
      if (seen.has(text)) count.same++;
      else {
        seen.add(text);
        out.push(entry);
        count.added++;
      }
    }
    if (count.added && out.every((entry) => plain(entry) && typeof entry.ts === "number")) {
      out.sort((a, b) => a.ts - b.ts);
    }
    return out;
  }

  const size = (value) => Object.keys(Array.isArray(value) || !plain(value.items) ? value : value.items).length;

  /** What importing `data` would do: one row per kind {name, count, value, changed}. */
  function plan(data) {
    const here = current().data;
    return Object.keys(data).sort().map((name) => {
      const there = data[name];
      const count = { added: 0, newer: 0, kept: 0, same: 0 };
      let value = there;
      if (!Object.prototype.hasOwnProperty.call(here, name)) count.added = size(there);
      else if (Array.isArray(there) !== Array.isArray(here[name]) || !plain(here[name]) && !Array.isArray(here[name])) {
        throw new Refusal("progress_err_kind", { where: name });
      } else if (Array.isArray(there)) value = mergeList(here[name], there, count);
      else if (plain(there.items)) {
        if (!plain(here[name].items)) throw new Refusal("progress_err_kind", { where: name });
        value = { ...here[name], items: mergeRecords(here[name].items, there.items, count) };
      } else value = mergeRecords(here[name], there, count);
      return { name, count, value, changed: count.added + count.newer > 0 };
    });
  }

  /** Stores the changed kinds; all or nothing (a failed write puts back what was there). */
  function apply(rows) {
    const before = new Map();
    try {
      for (const row of rows.filter((r) => r.changed)) {
        before.set(row.name, localStorage.getItem(PREFIX + row.name));
        localStorage.setItem(PREFIX + row.name, JSON.stringify(row.value));
      }
    } catch (error) {
      for (const [name, text] of before) {
        try {
          if (text === null) localStorage.removeItem(PREFIX + name);
          else localStorage.setItem(PREFIX + name, text);
        } catch (again) {
          // putting back the old text frees room, so this is not expected to fail
        }
      }
      throw new Refusal("progress_err_full");
    } finally {
      for (const name of before.keys()) storage().reread(PREFIX + name);
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
      input.addEventListener("change", () => {
        const file = input.files && input.files[0];
        input.value = "";
        if (file) this.attempt(() => (file.size > BIGGEST ? Promise.reject(new Refusal("progress_err_big")) : file.text()));
      });
      this.fromLink();
    }

    say(key, values, alert) {
      this.status.replaceChildren(fill(this.text[key] || key, values || {}));
      this.status.setAttribute("data-kind", alert ? "error" : "ok");
    }

    async download() {
      const state = current();
      const file = exported(state.data);
      const name = `qbank-study-${file.exported.slice(0, 10)}.json`;
      const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 1)], { type: "application/json" }));
      const a = element("a", { href: url, download: name, hidden: "" });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
      this.say("progress_downloaded", { name });
      this.leftOut(state.unreadable);
    }

    async copy() {
      const state = current();
      const url = location.href.split("#")[0] + LINK + (await pack(JSON.stringify(exported(state.data))));
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
      this.leftOut(state.unreadable);
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
        this.show(data, plan(data));
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        this.forgetLink();
        this.say(error.key, error.values, true);
      }
    }

    show(data, rows) {
      const t = this.text;
      const table = element("table"); // no class: Material's table style
      const wrap = element("div", { class: "qb-transfer__table" });
      wrap.append(table);
      const head = element("tr");
      for (const key of ["progress_kind", "progress_new", "progress_newer", "progress_kept", "progress_same"]) {
        head.append(element("th", { scope: "col" }, t[key]));
      }
      table.append(element("thead"), element("tbody"));
      table.tHead.append(head);
      for (const row of rows) {
        const tr = element("tr", { "data-kind": row.name });
        tr.append(element("th", { scope: "row" }, t[`progress_kind_${row.name}`] || row.name));
        for (const n of ["added", "newer", "kept", "same"]) tr.append(element("td", { "data-count": n }, String(row.count[n])));
        table.tBodies[0].append(tr);
      }
      const changes = rows.some((row) => row.changed);
      const actions = element("p", { class: "qb-transfer__actions" });
      if (changes) {
        const go = element("button", { type: "button", class: "qb-transfer__apply qb-primary" }, t.progress_apply);
        go.addEventListener("click", () => this.confirm(data));
        actions.append(go, " ");
      }
      const cancel = element("button", { type: "button", class: "qb-transfer__cancel" }, t.progress_cancel);
      cancel.addEventListener("click", () => this.close("progress_cancelled"));
      actions.append(cancel);
      this.preview.append(element("p", {}, t.progress_preview), wrap, actions);
      this.preview.hidden = false;
      if (changes) this.status.replaceChildren(); // the focused button names the next step
      else this.say("progress_nothing");
      (actions.querySelector(".qb-transfer__apply") || cancel).focus();
    }

    confirm(data) {
      try {
        const rows = plan(data); // again: another tab may have written since the preview
        apply(rows);
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
      localStorage.getItem(PREFIX + META);
      return Boolean(storage());
    } catch (error) {
      return false; // storage blocked: the page keeps its "needs storage" text
    }
  }

  function setup() {
    for (const box of document.querySelectorAll(".qb-transfer")) {
      if (box.qbTransfer) continue;
      if (usable()) box.qbTransfer = new Transfer(box);
      else box.querySelector(".qb-transfer__blocked").hidden = false;
    }
  }

  // Material's instant navigation runs this script again on each visit of the page; a link
  // pasted into the address bar of the open page only changes the fragment.
  if (!window.qbankTransferHash) {
    window.qbankTransferHash = true;
    window.addEventListener("hashchange", () => {
      const box = document.querySelector(".qb-transfer");
      if (box && box.qbTransfer) box.qbTransfer.fromLink();
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
