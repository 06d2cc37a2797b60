// Sessions: a keyset-paged list (newest first, 50 a page: one index range, however many sessions
// there are) with title, source, model, cost and last activity, and full-text search (words,
// and Korean or other CJK text through the trigram index) that updates as one types.
import type { SessionCursor, SessionListRow } from "@iris/host";
import type { DashboardDeps } from "../deps.js";
import { type Html, html, usd, when } from "../html.js";

export const PAGE_SIZE = 50;

export function parseCursor(raw: string | undefined): SessionCursor | undefined {
  const m = /^(\d+)\.(\d+)$/.exec(raw ?? "");
  return m ? { startedAt: Number(m[1]), rowid: Number(m[2]) } : undefined;
}

export async function sessionsPage(
  deps: DashboardDeps,
  q: string,
  cursor: SessionCursor | undefined,
): Promise<Html> {
  return html`<p class="muted">${(await deps.data.reads.sessionCount()).toLocaleString("en-US")} sessions</p>
<input type="search" name="q" value="${q}" placeholder="Search every conversation (words or 한국어)" aria-label="search"
  hx-get="/partials/sessions" hx-trigger="input changed delay:300ms, search" hx-target="#session-rows" hx-push-url="false" autocomplete="off">
<div id="session-rows">${await sessionRows(deps, q, cursor)}</div>`;
}

export async function sessionRows(
  deps: DashboardDeps,
  q: string,
  cursor: SessionCursor | undefined,
): Promise<Html> {
  if (q.trim()) return searchRows(deps, q.trim());
  const rows = await deps.data.reads.sessionsPage(PAGE_SIZE, cursor);
  const last = rows.at(-1);
  return html`${table(rows)}
${rows.length === PAGE_SIZE && last ? html`<p><a id="next-page" href="/sessions?before=${last.startedAt}.${last.rowid}">Older sessions →</a></p>` : ""}`;
}

async function searchRows(deps: DashboardDeps, q: string): Promise<Html> {
  const hits = await deps.data.search(q, 100);
  const snippets = new Map<string, string>();
  for (const h of hits) if (!snippets.has(h.sessionId)) snippets.set(h.sessionId, h.snippet);
  const rows = await deps.data.reads.sessionsById([...snippets.keys()].slice(0, PAGE_SIZE));
  if (!rows.length) return html`<p class="muted" data-results="0">Nothing found for “${q}”.</p>`;
  return table(rows, snippets);
}

function table(rows: readonly SessionListRow[], snippets?: Map<string, string>): Html {
  return html`<table id="sessions" data-results="${rows.length}"><tr><th>Title</th><th>Source</th><th>Model</th><th class="n">Cost</th><th>Last activity</th></tr>
${rows.map(
  (
    r,
  ) => html`<tr data-session="${r.id}"><td><a href="/sessions/${r.id}">${r.title ?? html`<span class="muted">${r.id.slice(-8)}</span>`}</a>
${snippets?.get(r.id) ? html`<div class="muted snippet">${snippets.get(r.id)}</div>` : ""}</td>
<td>${sourceLabel(r.source)}</td><td>${r.model ?? "–"}</td><td class="n">${usd(r.costUsd)}</td><td>${when(r.lastActivity)}</td></tr>`,
)}</table>`;
}

/** cli, acp, api (an API key), gateway:irc (a chat), cron, delegate, batch, … as people read them. */
export function sourceLabel(source: string): string {
  if (source === "api") return "API key";
  if (source.startsWith("gateway:")) return `chat (${source.slice(8)})`;
  if (source === "cli") return "CLI";
  if (source === "acp") return "ACP";
  return source;
}
