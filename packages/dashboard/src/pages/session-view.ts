// One session's conversation, 200 nodes a page in the order they were stored: user and assistant
// messages, tool calls with their arguments, tool results, the questions asked while it ran and
// how they were answered, compression summaries, where branches fork, and the sessions it was
// split from or into (followed by link). Rename, export and delete sit on top.
import type { AskRow, NodeRow, SessionRow } from "@iris/host";
import type { DashboardDeps } from "../deps.js";
import { type Html, html, num, usd, when } from "../html.js";
import { csrfField } from "../layout.js";
import { sourceLabel } from "./sessions.js";

const NODES_PER_PAGE = 200;
const MAX_SHOWN = 8000;

export async function sessionView(
  deps: DashboardDeps,
  s: SessionRow,
  afterSeq: number,
  csrf: string,
  branch?: string,
): Promise<Html> {
  const { data } = deps;
  // One branch followed from the root (a page of its path), or every node in the order stored.
  const path = branch ? await data.branchPage(s.id, branch, afterSeq, NODES_PER_PAGE) : undefined;
  const nodes = path ?? (await data.reads.nodesPage(s.id, afterSeq, NODES_PER_PAGE));
  const forks = await data.reads.forkPoints(s.id);
  const children = await data.reads.childSessions(s.id);
  const branches = await data.branches(s.id);
  const active = await data.activeLeafId(s.id);
  const more = path ? `&branch=${encodeURIComponent(branch ?? "")}` : "";
  const asks = await data.board.forSession(s.id);
  const last = nodes.at(-1);
  return html`<div class="cards">
  <div class="card"><span>Source</span><b>${sourceLabel(s.source)}</b><span class="muted">started ${when(s.startedAt)}${s.endedAt ? html` · ended ${when(s.endedAt)} (${s.endReason ?? ""})` : ""}</span></div>
  <div class="card"><span>Model</span><b>${s.model ?? "–"}</b><span class="muted">${s.provider ?? ""}</span></div>
  <div class="card"><span>Cost</span><b>${usd(s.costUsd)}</b><span class="muted">${num(s.apiCalls)} calls · ${num(s.inputTokens)} in · ${num(s.outputTokens)} out</span></div>
  <div class="card"><span>Branches</span><b data-branches="${branches.length}">${branches.length}</b></div>
</div>
${s.parentSessionId ? html`<p>Split from or started by <a id="parent-session" href="/sessions/${s.parentSessionId}">${s.parentSessionId}</a></p>` : ""}
${children.length ? html`<p>Continued in or delegated to: ${children.map((c) => html`<a class="child-session" href="/sessions/${c.id}">${c.title ?? c.id.slice(-8)}</a> (${sourceLabel(c.source)}) `)}</p>` : ""}
<form method="post" action="/sessions/${s.id}/rename" class="inline">${csrfField(csrf)}
  <input name="title" value="${s.title ?? ""}" maxlength="200" aria-label="title" required> <button>Rename</button></form>
<a href="/sessions/${s.id}/export?format=jsonl" download>Export JSONL</a> ·
<a href="/sessions/${s.id}/export?format=sharegpt" download>Export ShareGPT</a>
<form method="post" action="/sessions/${s.id}/delete" class="inline">${csrfField(csrf)}
  <label><input type="checkbox" name="confirm" value="yes" required> delete for good</label> <button>Delete</button></form>
${asks.length ? html`<h2>Questions asked</h2>${asks.map(askLine)}` : ""}
${branches.length > 1 ? branchLinks(s.id, branches, active, path ? branch : undefined) : ""}
<h2>Conversation${path ? html` · one branch <a href="/sessions/${s.id}">(show every message)</a>` : ""}</h2>
${branch && !path ? html`<p class="error">No branch ${branch} in this session; every message is shown.</p>` : ""}
${nodes.length ? nodes.map((n) => nodeBlock(n, forks)) : html`<p class="muted">No messages${afterSeq ? " after this point" : ""}.</p>`}
${nodes.length === NODES_PER_PAGE && last ? html`<p><a id="more-nodes" href="/sessions/${s.id}?after=${last.seq}${more}">Later messages →</a></p>` : ""}`;
}

/** Each branch tip, newest last, followed from the root by link (the active one marked). */
function branchLinks(
  sessionId: string,
  branches: { id: string; createdAt: number }[],
  active: string | undefined,
  shown: string | undefined,
): Html {
  return html`<h2>Branches</h2><ol id="branches">${branches.map(
    (b) =>
      html`<li data-branch="${b.id}"><a class="branch" href="/sessions/${sessionId}?branch=${b.id}">${b.id.slice(-8)}</a> · last message ${when(b.createdAt)}${b.id === active ? " · active (the next turn continues here)" : ""}${b.id === shown ? " · shown" : ""}</li>`,
  )}</ol>`;
}

function askLine(a: AskRow): Html {
  const q = a.question as { command?: string; question?: string; reason?: string; tool?: string };
  return html`<div class="node note"><b>${a.kind === "approval" ? `approval: ${q.tool ?? ""}` : "question"}</b>
<pre>${q.command ?? q.question ?? ""}</pre><span class="muted">${q.reason ?? ""} · ${a.state}${a.answer ? ` → ${a.answer}` : ""}${a.answeredBy ? ` (by ${a.answeredBy})` : ""} · ${when(a.createdAt)}</span></div>`;
}

const cut = (s: string) =>
  s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN)}\n… (${s.length - MAX_SHOWN} more characters)` : s;

function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((p: { type?: string; text?: string }) =>
        p.type === "text" ? (p.text ?? "") : `[${p.type ?? "part"}]`,
      )
      .join("");
  return "";
}

function nodeBlock(n: NodeRow, forks: Set<string>): Html {
  const fork = forks.has(n.id) ? html`<span class="muted"> · branches fork here</span>` : "";
  const head = (label: string) => html`<div class="muted">${label} · ${when(n.createdAt)}${fork}</div>`;
  if (n.kind !== "message" || !n.message)
    return html`<div class="node ${n.kind}" data-node="${n.id}">${head(n.kind === "compaction" ? "compression summary" : "note")}<pre>${cut(n.text ?? "")}</pre></div>`;
  const m = n.message;
  if (m.role === "user")
    return html`<div class="node user" data-node="${n.id}">${head("user")}<pre>${cut(textOfContent(m.content))}</pre></div>`;
  if (m.role === "tool")
    return html`<div class="node tool" data-node="${n.id}">${head(`tool result · ${m.toolName}${m.isError ? " (error)" : ""}`)}<pre>${cut(textOfContent(m.content))}</pre></div>`;
  return html`<div class="node assistant" data-node="${n.id}">${head(`assistant · ${m.origin?.model ?? ""}`)}
${m.parts.map((p) =>
  p.type === "text"
    ? html`<pre>${cut(p.text)}</pre>`
    : p.type === "toolCall"
      ? html`<div class="tool-call"><b>tool call ${p.name}</b><pre>${cut(p.argumentsJson)}</pre></div>`
      : html`<details><summary class="muted">reasoning</summary><pre>${cut(reasoningText(p))}</pre></details>`,
)}</div>`;
}

function reasoningText(p: unknown): string {
  const r = p as { text?: string; summary?: string };
  return r.text ?? r.summary ?? "";
}
