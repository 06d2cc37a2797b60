// Waiting approval and clarify requests from every front end of the profile (the ask board),
// answered here by request id with the same choices as elsewhere: once, this session, always,
// deny; a clarify with choices offers them, otherwise free text. The list refreshes every 2 s.
import type { AskRow } from "@iris/host";
import type { DashboardDeps } from "../deps.js";
import { type Html, html, when } from "../html.js";
import { sourceLabel } from "./sessions.js";

const APPROVAL_CHOICES: [string, string][] = [
  ["once", "Allow once"],
  ["session", "Allow for this session"],
  ["always", "Always allow"],
  ["deny", "Deny"],
];

export async function approvalsPage(deps: DashboardDeps): Promise<Html> {
  return html`<div id="asks" hx-get="/partials/approvals" hx-trigger="every 2s" hx-swap="innerHTML">${await askList(deps)}</div>`;
}

export async function askList(deps: DashboardDeps, notice?: Html): Promise<Html> {
  const asks = await deps.data.waitingAsks();
  return html`${notice ?? ""}${
    asks.length
      ? html`<div data-asks="${asks.length}">${asks.map(askCard)}</div>`
      : html`<p class="muted" data-asks="0">Nothing is waiting for an answer.</p>`
  }`;
}

function askCard(a: AskRow): Html {
  const q = a.question as {
    tool?: string;
    command?: string;
    reason?: string;
    cwd?: string;
    question?: string;
    choices?: string[];
  };
  const target = html`hx-post="/approvals/${a.id}" hx-target="#asks" hx-swap="innerHTML"`;
  const body =
    a.kind === "approval"
      ? html`<b>${q.tool ?? "tool"}</b> wants to run<pre>${q.command ?? ""}</pre><p>${q.reason ?? ""}${q.cwd ? html` <span class="muted">in ${q.cwd}</span>` : ""}</p>
${APPROVAL_CHOICES.map(([v, label]) => html`<button ${target} name="answer" value="${v}">${label}</button> `)}`
      : html`<b>Question</b><pre>${q.question ?? ""}</pre>
${
  q.choices?.length
    ? q.choices.map((c) => html`<button ${target} name="answer" value="${c}">${c}</button> `)
    : html`<form ${target}><input name="answer" required aria-label="answer"> <button>Answer</button></form>`
}`;
  return html`<div class="node note" data-ask="${a.id}" data-kind="${a.kind}">
<div class="muted">request ${a.id} · ${sourceLabel(a.source)} · session <a href="/sessions/${a.sessionId}">${a.sessionId.slice(-8)}</a> · ${when(a.createdAt)}</div>
${body}</div>`;
}
