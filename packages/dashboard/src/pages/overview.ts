// Overview: version and uptime, gateway platforms with their health and last error, MCP servers,
// running turns, waiting questions, and what today and this month cost against the budgets.
import { existsSync, readFileSync } from "node:fs";
import type { DashboardDeps } from "../deps.js";
import { type Html, html, usd, when } from "../html.js";
import { mcpSection } from "./mcp.js";
import { dayNo, monthStart } from "./time.js";

export async function overviewCards(deps: DashboardDeps, now = Date.now()): Promise<Html> {
  const { data, profile } = deps;
  const cfg = profile.config;
  const today = await data.reads.usageOnDays(dayNo(now), dayNo(now));
  const month = await data.reads.usageOnDays(dayNo(monthStart(now)), dayNo(now));
  const monthly = cfg.dashboard.monthly_budget_usd;
  const asks = await data.waitingAsks();
  const turns = await data.runningTurns(now);
  const health = await data.platformHealth();
  const mcp = Object.entries(cfg.mcp_servers ?? {});
  const mcpStates = mcp.length ? await data.mcpStates() : [];
  const gatewayPid = readPid(profile.home.paths.gatewayPid);
  return html`<div class="cards">
  <div class="card"><span>Iris</span><b>${deps.version}</b><span class="muted">up ${uptime(now - deps.startedAt)} · profile ${profile.home.profile}</span></div>
  <div class="card" data-cost-today="${today.costUsd}"><span>Cost today (UTC)</span><b>${usd(today.costUsd)}</b><span class="muted">${today.calls} API calls</span></div>
  <div class="card" data-cost-month="${month.costUsd}"><span>Cost this month</span><b>${usd(month.costUsd)}</b>
    <span class="muted">${monthly ? html`of ${usd(monthly)} (${((100 * month.costUsd) / monthly).toFixed(1)} %)` : "no dashboard.monthly_budget_usd set"}</span>
    ${cfg.agent.cost_budget_usd ? html`<span class="muted">per-session limit ${usd(cfg.agent.cost_budget_usd)} (agent.cost_budget_usd)</span>` : ""}</div>
  <div class="card"><span>Running turns</span><b data-running-turns="${turns.length}">${turns.length}</b></div>
  <div class="card"><span>Waiting questions</span><b data-pending-asks="${asks.length}"><a href="/approvals">${asks.length}</a></b></div>
  <div class="card"><span>Gateway</span><b>${gatewayPid ? html`running (pid ${gatewayPid})` : "not running"}</b></div>
</div>
<h2>Gateway platforms</h2>
${
  health.length
    ? html`<table id="platforms"><tr><th>Platform</th><th>State</th><th>Since</th><th>Last error</th></tr>
${health.map(
  (h) => html`<tr data-platform="${h.platform}" data-state="${h.state}"><td>${h.platform}</td>
<td class="state-${h.state}">${h.state}</td><td>${when(h.updatedAt)}</td><td class="error">${h.lastError ?? ""}</td></tr>`,
)}</table>`
    : html`<p class="muted">No gateway has run on this profile.</p>`
}
<h2>MCP servers</h2>
${mcpSection(
  mcp.map(([name]) => name),
  mcpStates,
)}
${
  turns.length
    ? html`<h2>Running turns</h2><table><tr><th>Session</th><th>Process</th><th>Since</th></tr>${turns.map(
        (t) =>
          html`<tr><td><a href="/sessions/${t.sessionId}">${t.sessionId}</a></td><td>${t.pid}</td><td>${when(t.acquiredAt)}</td></tr>`,
      )}</table>`
    : ""
}`;
}

export async function overviewPage(deps: DashboardDeps): Promise<Html> {
  return html`<div id="overview" hx-get="/partials/overview" hx-trigger="every 5s" hx-swap="innerHTML">${await overviewCards(deps)}</div>`;
}

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  let pid: number;
  try {
    // gateway/lock.ts writes {pid, started, home}.
    pid = Number((JSON.parse(readFileSync(file, "utf8")) as { pid?: unknown }).pid);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

function uptime(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
