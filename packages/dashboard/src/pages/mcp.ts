// MCP servers on the overview. First their live state in the running processes (the gateway,
// serve, a chat: each records its servers' state in the store as it changes), read on every
// poll. A configured server that no running process has is checked by the dashboard itself:
// started once, outside any session, as `iris mcp list` does, loaded after the first screen (a
// server may take seconds to start) and kept for a minute, so the 5-second poll never starts
// servers again and again.
import { type McpStateRow, probeMcpServers } from "@iris/host";
import type { DashboardDeps } from "../deps.js";
import { type Html, html, when } from "../html.js";

const FRESH_MS = 60_000;
let cached: { at: number; config: unknown; body: Html } | undefined;
let running: Promise<Html> | undefined;

export async function mcpStates(deps: DashboardDeps, now = Date.now()): Promise<Html> {
  const servers = deps.profile.config.mcp_servers;
  if (cached && cached.config === servers && now - cached.at < FRESH_MS) return cached.body;
  running ??= probeMcpServers(deps.profile)
    .then(({ statuses }) => {
      const body = statuses.length
        ? html`<table id="mcp-states"><tr><th>Name</th><th>Transport</th><th>State</th><th>Tools</th><th>Last error</th></tr>${statuses.map(
            (s) =>
              html`<tr data-mcp="${s.name}" data-state="${s.state}"><td>${s.name}</td><td>${s.transport}</td><td class="state-${s.state}">${s.state}</td><td>${s.tools.length}</td><td class="error">${s.lastError ?? ""}</td></tr>`,
          )}</table><p class="muted">checked ${when(now)}</p>`
        : html`<p class="muted">None configured (mcp_servers in config.yaml).</p>`;
      cached = { at: now, config: servers, body };
      return body;
    })
    .finally(() => {
      running = undefined;
    });
  return running;
}

/** The overview's placeholder: filled once the page is shown, then from the cache. */
export function mcpPlaceholder(): Html {
  return html`<div id="mcp" hx-get="/partials/mcp" hx-trigger="load" hx-swap="innerHTML"><p class="muted">checking the MCP servers…</p></div>`;
}

/** The live table, one row per process and server (a process that died shows `gone`). */
export function liveMcpTable(rows: McpStateRow[]): Html {
  if (rows.length === 0) return html``;
  return html`<table id="mcp-live"><tr><th>Process</th><th>Name</th><th>Transport</th><th>State</th><th>Tools</th><th>Restarts</th><th>Since</th><th>Last error</th></tr>${rows.map(
    (r) =>
      html`<tr data-live-mcp="${r.server}" data-platform="${r.platform}" data-state="${r.state}"><td>${r.platform} (pid ${r.pid})</td><td>${r.server}</td><td>${r.transport}</td><td class="state-${r.state}">${r.state}</td><td>${r.tools}</td><td>${r.restarts}</td><td>${when(r.updatedAt)}</td><td class="error">${r.lastError ?? ""}</td></tr>`,
  )}</table>`;
}

/** The overview's MCP section: live states, and the dashboard's own check of servers no running process has. */
export function mcpSection(configured: string[], rows: McpStateRow[]): Html {
  if (configured.length === 0)
    return html`<p class="muted">None configured (mcp_servers in config.yaml).</p>`;
  const live = new Set(rows.filter((r) => r.state !== "gone").map((r) => r.server));
  const unseen = configured.filter((name) => !live.has(name));
  return html`${liveMcpTable(rows)}${
    unseen.length
      ? html`${rows.length ? html`<p class="muted">Not running in any Iris process now: ${unseen.join(", ")}. The dashboard's own check:</p>` : ""}${mcpPlaceholder()}`
      : ""
  }`;
}
