// The web chat's two pages, plain HTML and JavaScript served by the gateway (no framework, no
// build step): a login form, and the chat. The chat script keeps one event stream open, with
// reconnects backing off (0.5 s doubling to 30 s, with jitter); a reload or a reconnect rebuilds
// the conversation from the history the stream sends first (read from the store). Sends carry a
// client message id and are retried with the same id until the gateway took them (it drops
// repeats), and wait in sessionStorage so a reload does not lose one.
import { renderMarkdown } from "./markdown.js";

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#f6f6f4;color:#222}
header{padding:.5em 1em;background:#334;color:#fff;display:flex;gap:1em;align-items:center}
header .state{margin-left:auto;font-size:.85em;opacity:.8}
main{max-width:50em;margin:0 auto;padding:1em 1em 6em}
.msg{margin:.5em 0;padding:.5em .8em;border-radius:.5em;background:#fff;box-shadow:0 1px 2px #0002}
.msg.user{background:#e3ecff;margin-left:4em}
.msg.pending{opacity:.6}
.msg.status{background:none;box-shadow:none;color:#666;font-style:italic;padding:.1em .8em}
.msg.draft{border:1px dashed #99a}
.msg p{margin:.2em 0}.msg pre{background:#222;color:#eee;padding:.6em;overflow:auto;border-radius:.3em}
.buttons button{margin:.4em .4em 0 0}
form#send{position:fixed;bottom:0;left:0;right:0;display:flex;gap:.5em;padding:.8em;background:#fff;border-top:1px solid #ccc}
form#send textarea{flex:1;height:3em}
#attachments{position:fixed;bottom:4.6em;left:.8em;display:flex;gap:.4em;flex-wrap:wrap}
#attachments span{background:#eef;border:1px solid #99a;border-radius:.3em;padding:.1em .4em;font-size:.85em}
#attachments span.refused{background:#fee;border-color:#c66}
#attachments button{border:0;background:none;cursor:pointer;padding:0 0 0 .3em}
`;

export function loginPage(nonce: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Iris — log in</title>
<style>${STYLE}</style></head><body><main>
<h1>Iris web chat</h1>
<p>Enter your own login token (the gateway's owner makes one with <code>iris gateway webchat add-user NAME</code>).</p>
<form id="login"><p><label>Token <input id="token" type="password" autocomplete="off" required></label></p>
<p><button type="submit">Log in</button> <span id="error" role="alert"></span></p></form>
<h2>No token?</h2>
<form id="pair"><p><label>Your name <input id="pair-name" required maxlength="32"></label>
<button type="submit">Ask for access</button> <span id="pair-error" role="alert"></span></p></form>
<p id="pair-code" hidden></p>
<div id="pair-done" hidden><p>You are in. Your own login token, shown once (keep it to log in from another browser):</p>
<p><code id="new-token"></code></p><p><button id="continue" type="button">Continue</button></p></div>
<script nonce="${nonce}">
document.getElementById("login").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const body = JSON.stringify({ token: document.getElementById("token").value });
  const res = await fetch("/login", { method: "POST", headers: { "content-type": "application/json" }, body });
  if (res.ok) location.reload();
  else document.getElementById("error").textContent = (await res.json().catch(() => ({}))).error || ("HTTP " + res.status);
});
const post = (path, body) => fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body || {}) });
let wait = 1000;
async function claim() {
  const res = await post("/pair/claim").catch(() => null);
  if (res && res.status === 200) {
    const r = await res.json();
    document.getElementById("pair-code").hidden = true;
    document.getElementById("new-token").textContent = r.token;
    document.getElementById("pair-done").hidden = false;
    return;
  }
  if (res && res.status !== 202) {
    document.getElementById("pair-error").textContent = (await res.json().catch(() => ({}))).error || ("HTTP " + res.status);
    return;
  }
  setTimeout(claim, wait + Math.random() * 500);
  wait = Math.min(10000, wait * 1.5);
}
document.getElementById("pair").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = await post("/pair", { name: document.getElementById("pair-name").value });
  const r = await res.json().catch(() => ({}));
  if (!res.ok) { document.getElementById("pair-error").textContent = r.error || ("HTTP " + res.status); return; }
  const el = document.getElementById("pair-code");
  el.textContent = "Your pairing code is " + r.code + ". Ask the owner to run: iris pairing approve " + r.code;
  el.hidden = false;
  claim();
});
document.getElementById("continue").addEventListener("click", () => location.reload());
</script></main></body></html>`;
}

export function chatPage(nonce: string, user: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Iris</title>
<style>${STYLE}</style></head><body>
<header><strong>Iris</strong><span id="chat"></span><span class="state"><span id="who"></span> · <span id="state">connecting…</span></span></header>
<main id="log" aria-live="polite"></main>
<div id="attachments" aria-live="polite"></div>
<form id="send"><button type="button" id="attach" title="Attach images or text files" aria-label="Attach files">📎</button><input id="files" type="file" multiple hidden><textarea id="text" placeholder="Message (Enter sends, Shift+Enter for a new line)"></textarea><button type="submit">Send</button></form>
<script nonce="${nonce}">
var __name = (f) => f;
const renderMarkdown = ${renderMarkdown.toString()};
const USER = ${JSON.stringify(user)};
const room = new URLSearchParams(location.search).get("room");
const CHAT = room ? "#" + room : "";
document.getElementById("chat").textContent = CHAT || "direct chat with Iris";
document.getElementById("who").textContent = USER;
const log = document.getElementById("log");
const stateEl = document.getElementById("state");
const OUTBOX = "iris-outbox:" + USER + ":" + CHAT;
let outbox = JSON.parse(sessionStorage.getItem(OUTBOX) || "[]");
const sentRecently = [];
let lastFromSnapshot = null;

// Pictures can be larger than sessionStorage allows: then only the text waits there (a reload
// sends it without them), the pictures stay in memory until sent.
function saveOutbox() {
  try { sessionStorage.setItem(OUTBOX, JSON.stringify(outbox)); }
  catch { sessionStorage.setItem(OUTBOX, JSON.stringify(outbox.map((o) => ({ id: o.id, text: o.text })))); }
}
function add(kind, text, opts = {}) {
  const el = document.createElement("div");
  el.className = "msg " + kind + (opts.pending ? " pending" : "");
  if (opts.id) el.dataset.id = opts.id;
  if (kind === "user") { el.textContent = (opts.user && opts.user !== USER ? opts.user + ": " : "") + text; }
  else { el.innerHTML = renderMarkdown(text); el.dataset.text = text; }
  if (opts.buttons) {
    const row = document.createElement("div");
    row.className = "buttons";
    for (const b of opts.buttons) {
      const btn = document.createElement("button");
      btn.textContent = b.label;
      btn.addEventListener("click", () => { for (const x of row.querySelectorAll("button")) x.disabled = true; send(b.text); });
      row.append(btn);
    }
    el.append(row);
  }
  const draft = log.querySelector(".draft");
  log.insertBefore(el, kind === "draft" ? null : draft);
  window.scrollTo(0, document.body.scrollHeight);
  return el;
}
function setDraft(text) {
  let el = log.querySelector(".draft");
  if (!text) { el?.remove(); return; }
  if (!el) el = add("draft", "");
  el.innerHTML = renderMarkdown(text);
}
function onEvent(e) {
  if (e.type === "history") {
    log.replaceChildren();
    for (const l of e.lines) add(l.role === "user" ? "user" : "bot", l.text);
    const last = e.lines[e.lines.length - 1];
    lastFromSnapshot = last && last.role === "assistant" ? last.text : null;
    const users = e.lines.filter((l) => l.role === "user").slice(-20).map((l) => l.text);
    for (const s of sentRecently) if (!users.some((u) => u.endsWith(s.text)) && !outbox.some((o) => o.id === s.id)) add("user", s.text, { id: s.id });
    for (const o of outbox) add("user", o.text, { id: o.id, pending: true });
    if (e.ask) add("bot", e.ask.text, { id: e.ask.key, buttons: e.ask.buttons });
    if (e.draft) setDraft(e.draft);
  } else if (e.type === "message") {
    if (e.key && log.querySelector('[data-id="' + CSS.escape(e.key) + '"]')) return;
    if (e.role === "assistant" && lastFromSnapshot === e.text) { lastFromSnapshot = null; return; }
    lastFromSnapshot = null;
    if (e.role === "assistant" && !e.buttons) setDraft("");
    add(e.role === "user" ? "user" : "bot", e.text, { id: e.key, user: e.user, buttons: e.buttons });
  } else if (e.type === "status") {
    const el = log.querySelector('.status[data-id="' + CSS.escape(e.id) + '"]');
    if (el) el.innerHTML = renderMarkdown(e.text); else add("status", e.text, { id: e.id });
  } else if (e.type === "draft") setDraft(e.text);
}
let delay = 500;
function connect() {
  const es = new EventSource("/events?chat=" + encodeURIComponent(CHAT));
  es.onmessage = (m) => { delay = 500; stateEl.textContent = "connected"; document.body.dataset.connected = "1"; onEvent(JSON.parse(m.data)); };
  es.onerror = () => {
    es.close();
    document.body.dataset.connected = "";
    stateEl.textContent = "reconnecting…";
    fetch("/me").then((r) => { if (r.status === 401) location.reload(); }, () => {});
    setTimeout(connect, delay + Math.random() * delay / 2);
    delay = Math.min(30000, delay * 2);
  };
}
async function flush() {
  while (outbox.length) {
    const o = outbox[0];
    let ok = false;
    try {
      const res = await fetch("/send", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ chat: CHAT, id: o.id, text: o.text, ...(o.images && o.images.length ? { images: o.images } : {}) }) });
      if (res.status === 401) return location.reload();
      if (res.status >= 400 && res.status < 500) {
        // Refused for what it is (too long, malformed): say so instead of retrying forever.
        const why = (await res.json().catch(() => ({}))).error || "HTTP " + res.status;
        log.querySelector('[data-id="' + CSS.escape(o.id) + '"]')?.append(" (not sent: " + why + ")");
      }
      ok = res.ok || (res.status >= 400 && res.status < 500);
    } catch {}
    if (!ok) { setTimeout(flush, 1000 + Math.random() * 1000); return; }
    outbox.shift();
    saveOutbox();
    sentRecently.push(o); if (sentRecently.length > 20) sentRecently.shift();
    log.querySelector('[data-id="' + CSS.escape(o.id) + '"]')?.classList.remove("pending");
  }
}
function send(text, images) {
  const o = { id: crypto.randomUUID(), text, ...(images && images.length ? { images } : {}) };
  outbox.push(o);
  saveOutbox();
  const shown = images && images.length ? text + "\\n📎 " + images.map((i) => i.name).join(", ") : text;
  add("user", shown, { id: o.id, pending: true });
  if (outbox.length === 1) flush();
}
// Attachments (SPEC H4): pictures go to the model as images (the gateway checks and resizes
// them); a text file is put into the message as a fenced block; anything else is refused here,
// named, before it is sent. The limits are /send's: 4 pictures of up to 4.5 MB (6 MB base64).
const MAX_IMAGES = 4, MAX_IMAGE_BYTES = 4_500_000, MAX_TEXT_FILE = 30_000;
const TEXT_NAME = /\\.(txt|md|markdown|csv|tsv|json|jsonl|ya?ml|toml|xml|html?|css|js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|kt|c|h|cc|cpp|hpp|cs|sh|bash|zsh|sql|log|ini|cfg|conf|diff|patch)$/i;
let attached = [];
const chips = document.getElementById("attachments");
function showAttachments() {
  chips.replaceChildren();
  attached.forEach((a, i) => {
    const chip = document.createElement("span");
    chip.className = a.refused ? "refused" : "";
    chip.textContent = a.refused ? a.name + ": " + a.refused : "📎 " + a.name;
    const x = document.createElement("button");
    x.type = "button"; x.textContent = "×"; x.setAttribute("aria-label", "remove " + a.name);
    x.addEventListener("click", () => { attached.splice(i, 1); showAttachments(); });
    chip.append(x);
    chips.append(chip);
  });
}
function readFile(file, how) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result);
    r.onerror = () => reject(r.error);
    if (how === "text") r.readAsText(file); else r.readAsDataURL(file);
  });
}
async function attach(files) {
  for (const file of files) {
    const isImage = /^image\\//.test(file.type);
    const isText = !isImage && (/^text\\//.test(file.type) || TEXT_NAME.test(file.name));
    let refused = "";
    if (isImage && attached.filter((a) => a.image).length >= MAX_IMAGES) refused = "at most " + MAX_IMAGES + " pictures a message";
    else if (isImage && file.size > MAX_IMAGE_BYTES) refused = "over 4.5 MB";
    else if (isText && file.size > MAX_TEXT_FILE) refused = "a text file over 30 KB (a message holds 32,000 characters)";
    else if (!isImage && !isText) refused = "not a picture or a text file";
    if (refused) { attached.push({ name: file.name, refused }); continue; }
    try {
      if (isImage) {
        const url = await readFile(file, "data");
        attached.push({ name: file.name, image: { name: file.name, data: String(url).replace(/^data:[^,]*,/, "") } });
      } else attached.push({ name: file.name, text: await readFile(file, "text") });
    } catch (e) { attached.push({ name: file.name, refused: "could not be read" }); }
  }
  showAttachments();
}
const picker = document.getElementById("files");
document.getElementById("attach").addEventListener("click", () => picker.click());
picker.addEventListener("change", async () => { await attach([...picker.files]); picker.value = ""; });
document.getElementById("send").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const t = document.getElementById("text");
  const ok = attached.filter((a) => !a.refused);
  const images = ok.filter((a) => a.image).map((a) => a.image);
  const texts = ok.filter((a) => a.text !== undefined).map((a) => "\\n\\n" + a.name + ":\\n\`\`\`\\n" + a.text.replace(/\\n$/, "") + "\\n\`\`\`");
  let text = t.value.trim() ? t.value : "";
  if (!text && !images.length && !texts.length) return;
  text = (text || (images.length ? "(attached: " + images.map((i) => i.name).join(", ") + ")" : "")) + texts.join("");
  send(text.trim() ? text : "(attached files)", images);
  t.value = "";
  attached = [];
  showAttachments();
});
document.getElementById("text").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); document.getElementById("send").requestSubmit(); }
});
connect();
flush();
</script></body></html>`;
}
