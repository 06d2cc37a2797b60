// Cron: the gateway's scheduled jobs with their last run and the slots they fired.
import type { DashboardDeps } from "../deps.js";
import { type Html, html, when } from "../html.js";

export function cronPage(deps: DashboardDeps): Html {
  const jobs = deps.data.cron.list();
  if (!jobs.length)
    return html`<p class="muted" data-jobs="0">No scheduled jobs (add one with <code>iris cron add</code> or the cronjob tool).</p>`;
  return html`<table id="cron-jobs" data-jobs="${jobs.length}"><tr><th>Job</th><th>Schedule</th><th>Posts to</th><th>Prompt</th><th>Created</th><th>Last run</th></tr>
${jobs.map(
  (
    j,
  ) => html`<tr data-job="${j.id}"><td>${j.id.slice(-8)}</td><td>${j.schedule}</td><td>${j.platform}:${j.chatId}</td><td>${j.prompt}</td>
<td>${when(j.createdAt)}</td><td>${when(j.lastSlot)}</td></tr>`,
)}</table>
${jobs.map((j) => {
  const runs = deps.data.reads.cronRuns(j.id);
  return html`<h2>Runs of ${j.id.slice(-8)}</h2>${
    runs.length
      ? html`<table><tr><th>Slot</th><th>Fired</th></tr>${runs.map((r) => html`<tr><td>${when(r.slot)}</td><td>${when(r.firedAt)}</td></tr>`)}</table>`
      : html`<p class="muted">Not run yet.</p>`
  }`;
})}`;
}
