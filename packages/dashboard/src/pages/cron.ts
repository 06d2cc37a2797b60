// Cron: the gateway's scheduled jobs with their next and last run, pause / resume / run now
// (the gateway's next tick, within a minute, acts on them), and each job's runs with their
// output and what they cost.
import type { DashboardCron, DashboardCronJob } from "../cron-port.js";
import type { DashboardDeps } from "../deps.js";
import { type Html, html, usd, when } from "../html.js";
import { csrfField } from "../layout.js";

export async function cronPage(deps: DashboardDeps, csrf: string): Promise<Html> {
  const cron = deps.cron;
  if (!cron) return html`<p class="muted">The gateway's cron jobs are not available in this dashboard.</p>`;
  const jobs = await cron.list();
  if (!jobs.length)
    return html`<p class="muted" data-jobs="0">No scheduled jobs (add one with <code>iris cron add</code> or the cronjob tool).</p>`;
  return html`<table id="cron-jobs" data-jobs="${jobs.length}"><tr><th>Job</th><th>Schedule</th><th>Posts to</th><th>Prompt</th><th>Last run</th><th>Next run</th><th>State</th><th></th></tr>
${await Promise.all(jobs.map((j) => jobRow(cron, j, csrf)))}</table>
${await Promise.all(jobs.map((j) => runsOf(deps, cron, j)))}`;
}

async function jobRow(cron: DashboardCron, j: DashboardCronJob, csrf: string): Promise<Html> {
  const c = await cron.control(j.id);
  const action = (what: string, label: string) =>
    html`<form method="post" action="/cron/${j.id}/${what}" class="inline">${csrfField(csrf)}<button name="do" value="${what}">${label}</button></form>`;
  return html`<tr data-job="${j.id}" data-paused="${c.paused ? "yes" : "no"}" data-run-requested="${c.runRequestedAt ? "yes" : "no"}">
<td>${j.id}</td><td>${j.schedule}</td><td>${j.platform}:${j.chatId}</td><td>${j.prompt}</td><td>${when(j.lastSlot)}</td>
<td>${c.paused ? "paused" : when(c.nextRunAt)}</td>
<td>${c.paused ? "paused" : "active"}${c.runRequestedAt ? html` · run asked ${when(c.runRequestedAt)}` : ""}</td>
<td>${c.paused ? action("resume", "Resume") : action("pause", "Pause")} ${action("run", "Run now")}</td></tr>`;
}

async function runsOf(deps: DashboardDeps, cron: DashboardCron, j: DashboardCronJob): Promise<Html> {
  const runs = await Promise.all(
    (await cron.runs(j.id)).map(async (r) => ({
      ...r,
      // What the run's session cost (the store keeps the session; the cron tables its id).
      costUsd: r.sessionId ? ((await deps.data.findSession(r.sessionId))?.costUsd ?? null) : null,
    })),
  );
  return html`<h2>Runs of ${j.id}</h2>${
    runs.length
      ? html`<table class="cron-runs" data-runs="${runs.length}"><tr><th>Slot</th><th>Fired</th><th>Session</th><th class="n">Cost</th><th>Output</th></tr>
${runs.map(
  (r) => html`<tr><td>${when(r.slot)}</td><td>${when(r.firedAt)}</td>
<td>${r.sessionId ? html`<a href="/sessions/${r.sessionId}">${r.sessionId.slice(-8)}</a>` : "–"}</td>
<td class="n">${r.costUsd === null ? "–" : usd(r.costUsd)}</td><td><pre>${(r.output ?? "").slice(0, 2000)}</pre></td></tr>`,
)}</table>`
      : html`<p class="muted">Not run yet.</p>`
  }`;
}
