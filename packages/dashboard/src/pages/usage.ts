// Usage and cost: per UTC day, tokens (in, out, cache read, cache write) and cost, split by model,
// provider, platform, session or cron job, with the month's budget line and pace, the tables
// behind the charts, and the same rows as CSV. One grouped range scan of usage_by_time.
import { StoreError, type UsageDayRow } from "@iris/host";
import { z } from "zod";
import type { DashboardDeps } from "../deps.js";
import { type Html, html, jsonScript, num, usd } from "../html.js";
import { DAY, dayKeys, dayNo, daysInMonth, monthStart, todayStart } from "./time.js";

/** Rows of the split table shown (by cost); the CSV has them all. */
const TABLE_ROWS = 50;

export const SPLITS = ["model", "provider", "platform", "session", "cron"] as const;

export const usageQuery = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30),
  split: z.enum(SPLITS).default("model"),
});
export type UsageQuery = z.output<typeof usageQuery>;

interface UsageView {
  days: string[];
  rows: UsageDayRow[];
  perDay: Map<string, UsageDayRow>;
  perKey: UsageDayRow[];
  total: UsageDayRow;
  /** Why the split has no rows here (usage by cron job without the gateway's cron tables). */
  unavailable?: string;
}

const zero = (day: string, key: string): UsageDayRow => ({
  day,
  key,
  calls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
});

function add(into: UsageDayRow, r: UsageDayRow): void {
  into.calls += r.calls;
  into.inputTokens += r.inputTokens;
  into.outputTokens += r.outputTokens;
  into.cacheReadTokens += r.cacheReadTokens;
  into.cacheWriteTokens += r.cacheWriteTokens;
  into.costUsd += r.costUsd;
}

export async function usageView(deps: DashboardDeps, q: UsageQuery, now = Date.now()): Promise<UsageView> {
  const from = todayStart(now) - (q.days - 1) * DAY;
  let rows: UsageDayRow[];
  let unavailable: string | undefined;
  try {
    rows =
      q.split === "cron"
        ? await byCronJob(deps, dayNo(from), dayNo(now))
        : await deps.data.reads.usageByDay(dayNo(from), dayNo(now), q.split);
  } catch (err) {
    if (!(err instanceof StoreError && err.code === "unsupported")) throw err;
    rows = [];
    unavailable = err.message;
  }
  const days = dayKeys(from, now + 1);
  const perDay = new Map(days.map((d) => [d, zero(d, "")]));
  const byKey = new Map<string, UsageDayRow>();
  const total = zero("", "total");
  for (const r of rows) {
    const d = perDay.get(r.day);
    if (d) add(d, r);
    let k = byKey.get(r.key);
    if (!k) {
      k = zero("", r.key);
      byKey.set(r.key, k);
    }
    add(k, r);
    add(total, r);
  }
  const perKey = [...byKey.values()].sort((a, b) => b.costUsd - a.costUsd || b.inputTokens - a.inputTokens);
  return { days, rows, perDay, perKey, total, ...(unavailable ? { unavailable } : {}) };
}

/**
 * Usage by cron job: the by-session rows of the days, each session's job read from the gateway's
 * cron tables (which run made it), summed per day and job; sessions no run made are left out.
 */
async function byCronJob(deps: DashboardDeps, fromDay: number, toDay: number): Promise<UsageDayRow[]> {
  if (!deps.cron)
    throw new StoreError(
      "unsupported",
      "usage by cron job needs the gateway's cron jobs, not available here",
    );
  const bySession = await deps.data.reads.usageByDay(fromDay, toDay, "session");
  const jobOf = await deps.cron.jobsOfSessions([...new Set(bySession.map((r) => r.key))]);
  const out = new Map<string, UsageDayRow>();
  for (const r of bySession) {
    const job = jobOf.get(r.key);
    if (!job) continue;
    const k = `${r.day} ${job}`;
    let into = out.get(k);
    if (!into) {
      into = zero(r.day, job);
      out.set(k, into);
    }
    add(into, r);
  }
  // In day order, then job (as the store orders its splits).
  return [...out.values()].sort((a, b) => a.day.localeCompare(b.day) || a.key.localeCompare(b.key));
}

export async function usagePage(deps: DashboardDeps, q: UsageQuery, now = Date.now()): Promise<Html> {
  const v = await usageView(deps, q, now);
  const x = v.days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
  const day = (f: (r: UsageDayRow) => number) => v.days.map((d) => f(v.perDay.get(d) ?? zero(d, "")));
  const tokens = {
    unit: "tokens",
    x,
    series: [
      { label: "input", color: "#5b4bdb", values: day((r) => r.inputTokens) },
      { label: "output", color: "#11772f", values: day((r) => r.outputTokens) },
      { label: "cache read", color: "#a86400", values: day((r) => r.cacheReadTokens) },
      { label: "cache write", color: "#b00020", values: day((r) => r.cacheWriteTokens) },
    ],
  };
  const monthly = deps.profile.config.dashboard.monthly_budget_usd;
  const costSeries: { label: string; color: string; values: number[]; dash?: boolean }[] = [
    { label: "cost", color: "#24213b", values: day((r) => r.costUsd) },
  ];
  if (monthly)
    costSeries.push({
      label: "budget per day",
      color: "#b00020",
      dash: true,
      values: x.map(() => monthly / daysInMonth(now)),
    });
  const month = await deps.data.reads.usageOnDays(dayNo(monthStart(now)), dayNo(now));
  const elapsedDays = (now - monthStart(now)) / DAY;
  const pace = elapsedDays > 0 ? (month.costUsd / elapsedDays) * daysInMonth(now) : 0;
  return html`<form class="filters" method="get" action="/usage">
  <label>Days <select name="days">${[7, 30, 90, 365].map((d) => html`<option${d === q.days ? html` selected` : ""}>${d}</option>`)}</select></label>
  <label>Split by <select name="split">${SPLITS.map((s) => html`<option${s === q.split ? html` selected` : ""}>${s}</option>`)}</select></label>
  <button>Show</button>
  <a href="/usage.csv?days=${q.days}&amp;split=${q.split}" download>CSV</a>
</form>
<div class="cards">
  <div class="card" data-total-cost="${v.total.costUsd}"><span>Cost, last ${q.days} days</span><b id="total-cost">${usd(v.total.costUsd)}</b></div>
  <div class="card" data-total-input="${v.total.inputTokens}"><span>Input tokens</span><b id="total-input">${num(v.total.inputTokens)}</b></div>
  <div class="card"><span>Output tokens</span><b>${num(v.total.outputTokens)}</b></div>
  <div class="card"><span>This month</span><b>${usd(month.costUsd)}</b>
  <span class="muted">${monthly ? html`budget ${usd(monthly)} · pace ${usd(pace)} by month end${pace > monthly ? html` <strong class="error">over budget</strong>` : ""}` : "set dashboard.monthly_budget_usd for a budget line"}</span></div>
</div>
<h2>Tokens per day</h2>
<div class="chart" id="chart-tokens" data-chart-src="data-tokens"></div>${jsonScript("data-tokens", tokens)}
<h2>Cost per day</h2>
<div class="chart" id="chart-cost" data-chart-src="data-cost"></div>${jsonScript("data-cost", { unit: "usd", x, series: costSeries })}
<h2>Cost per day by ${q.split}</h2>
<div class="chart" id="chart-split" data-chart-src="data-split"></div>${jsonScript("data-split", splitChart(v, x))}
<h2>By ${q.split}</h2>
${v.unavailable ? html`<p class="muted" id="split-unavailable">${v.unavailable}</p>` : ""}
${table(v.perKey.slice(0, TABLE_ROWS), q.split, v.total)}
${v.perKey.length > TABLE_ROWS ? html`<p class="muted">The ${TABLE_ROWS} largest of ${num(v.perKey.length)}; the CSV has every row.</p>` : ""}
<h2>Per day</h2>
${table(
  v.days.map((d) => ({ ...(v.perDay.get(d) ?? zero(d, "")), key: d })),
  "day",
  v.total,
)}`;
}

const SPLIT_COLORS = ["#5b4bdb", "#11772f", "#a86400", "#b00020", "#0a7ea4", "#7a3e9d"];

/** The six largest keys by cost, one line each (the table below has them all). */
function splitChart(v: UsageView, x: number[]): object {
  const top = v.perKey.slice(0, SPLIT_COLORS.length).map((k) => k.key);
  const cost = new Map<string, number>();
  for (const r of v.rows) if (top.includes(r.key)) cost.set(`${r.day} ${r.key}`, r.costUsd);
  return {
    unit: "usd",
    x,
    series: top.map((key, i) => ({
      label: key.length > 40 ? `${key.slice(0, 39)}…` : key,
      color: SPLIT_COLORS[i],
      values: v.days.map((d) => cost.get(`${d} ${key}`) ?? 0),
    })),
  };
}

function table(rows: readonly UsageDayRow[], label: string, total: UsageDayRow): Html {
  return html`<table class="usage"><tr><th>${label}</th><th class="n">calls</th><th class="n">input</th><th class="n">output</th><th class="n">cache read</th><th class="n">cache write</th><th class="n">cost</th></tr>
${rows.map(
  (r) =>
    html`<tr><td>${label === "session" ? html`<a href="/sessions/${r.key}">${r.key}</a>` : r.key}</td><td class="n">${num(r.calls)}</td><td class="n">${num(r.inputTokens)}</td><td class="n">${num(r.outputTokens)}</td><td class="n">${num(r.cacheReadTokens)}</td><td class="n">${num(r.cacheWriteTokens)}</td><td class="n">${usd(r.costUsd)}</td></tr>`,
)}
<tr><th>total</th><th class="n">${num(total.calls)}</th><th class="n">${num(total.inputTokens)}</th><th class="n">${num(total.outputTokens)}</th><th class="n">${num(total.cacheReadTokens)}</th><th class="n">${num(total.cacheWriteTokens)}</th><th class="n">${usd(total.costUsd)}</th></tr></table>`;
}

/** day,key,calls,input_tokens,… one line per (day, key), RFC 4180 quoting. */
export async function usageCsv(deps: DashboardDeps, q: UsageQuery, now = Date.now()): Promise<string> {
  const { rows } = await usageView(deps, q, now);
  const cell = (s: string | number) => {
    // A text cell starting like a formula is quoted with ' so a spreadsheet does not run it.
    const t = typeof s === "string" && /^[=+\-@\t\r]/.test(s) ? `'${s}` : String(s);
    return /[",\n\r]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
  };
  const head = `day,${q.split},calls,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,cost_usd\n`;
  return (
    head +
    rows
      .map((r) =>
        [
          r.day,
          r.key,
          r.calls,
          r.inputTokens,
          r.outputTokens,
          r.cacheReadTokens,
          r.cacheWriteTokens,
          r.costUsd.toFixed(6),
        ]
          .map(cell)
          .join(","),
      )
      .join("\n") +
    (rows.length ? "\n" : "")
  );
}
