// `iris usage --by day|model [--days N]` (SPEC F3): totals per UTC day or per provider/model over
// the last N days, read from the store's daily usage table (kept by triggers, so a profile with
// many sessions is summed without scanning its calls).
import type { StoredRecords } from "@iris/host";
import { cacheHitShare, formatUsd } from "./usage-view.js";

export type UsageBy = "day" | "model";

interface Totals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  costUsd: number;
}

const DAY_MS = 86_400_000;
const n = (x: number) => x.toLocaleString("en-US");

function add(into: Totals, r: Totals): void {
  into.calls += r.calls;
  into.inputTokens += r.inputTokens;
  into.outputTokens += r.outputTokens;
  into.cacheReadTokens += r.cacheReadTokens;
  into.costUsd += r.costUsd;
}

const zero = (): Totals => ({ calls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: 0 });

function columns(t: Totals): string {
  return [
    n(t.calls).padStart(6),
    n(t.inputTokens).padStart(12),
    cacheHitShare(t.inputTokens, t.cacheReadTokens).padStart(8),
    n(t.outputTokens).padStart(10),
    formatUsd(t.costUsd).padStart(10),
  ].join(" ");
}

/** The table: one line per day (newest first) or per model (costliest first), then the total. */
export async function formatUsageTotals(
  records: Pick<StoredRecords, "usageByDay">,
  by: UsageBy,
  days: number,
  now = Date.now(),
): Promise<string> {
  const today = Math.floor(now / DAY_MS);
  const from = today - days + 1;
  const rows = await records.usageByDay(from, today);
  const groups = new Map<string, Totals>();
  for (const r of rows) {
    const key = by === "day" ? r.day : r.key;
    const t = groups.get(key) ?? zero();
    add(t, r);
    groups.set(key, t);
  }
  const range = `${days === 1 ? "today" : `the last ${days} days`} (UTC)`;
  if (!groups.size) return `no API calls in ${range}\n`;
  const entries = [...groups].sort(
    by === "day"
      ? (a, b) => b[0].localeCompare(a[0])
      : (a, b) => b[1].costUsd - a[1].costUsd || a[0].localeCompare(b[0]),
  );
  const width = by === "day" ? 10 : Math.min(40, Math.max(14, ...entries.map(([k]) => k.length)));
  const head = by === "day" ? "day" : "provider/model";
  const lines = [
    `${head.padEnd(width)} ${"calls".padStart(6)} ${"input".padStart(12)} ${"cached".padStart(8)} ${"output".padStart(10)} ${"cost".padStart(10)}`,
  ];
  const total = zero();
  for (const [key, t] of entries) {
    lines.push(`${key.slice(0, width).padEnd(width)} ${columns(t)}`);
    add(total, t);
  }
  lines.push(`${"total".padEnd(width)} ${columns(total)}`);
  lines.push(`(${range})`);
  return `${lines.join("\n")}\n`;
}
