// Calendar boundaries in UTC: the usage page's days and the overview's "today" and "this month".
const DAY = 86_400_000;

export const todayStart = (now: number) => Math.floor(now / DAY) * DAY;

/** Days since 1970-01-01 UTC (usage_daily's day). */
export const dayNo = (ms: number) => Math.floor(ms / DAY);

export function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export function daysInMonth(now: number): number {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
}

/** Every UTC day in [from, to) as YYYY-MM-DD. */
export function dayKeys(from: number, to: number): string[] {
  const out: string[] = [];
  for (let t = todayStart(from); t < to; t += DAY) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export { DAY };
