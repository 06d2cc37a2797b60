// MCP servers as they are now (issue "Overview: … MCP servers"): each configured server is started
// once, outside any session, as `iris mcp list` does, and shown with its state, tools and last
// error. Loaded after the overview's first screen (a server may take seconds to start) and kept
// for a minute, so the overview's 5-second poll never starts servers again and again.
import { probeMcpServers } from "@iris/host";
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
