// `iris usage [--session ID] [--last N] [--by day|model [--days N]]` (SPEC F3): what the recorded API calls cost, read from
// the profile's store without starting a model.
import { existsSync } from "node:fs";
import type { SessionRow, StoredRecords } from "@iris/host";
import type { GlobalFlags } from "../flags.js";
import { resolveSession } from "../session-ref.js";
import { formatSessionTime } from "./session-time.js";
import { formatUsageTotals, type UsageBy } from "./usage-totals.js";
import { formatSessionsUsage, formatUsage } from "./usage-view.js";
import { profileOrExit, readRecords } from "./with-records.js";

export interface UsageOptions {
  session?: string;
  /** Sessions listed (default 10), or with --session the newest calls shown (default all). */
  last?: number;
  /** Totals per day or per model instead of per session. */
  by?: UsageBy;
  /** With `by`: how many days back, today included (default 30). */
  days?: number;
}

const DEFAULT_SESSIONS = 10;
const DEFAULT_DAYS = 30;

export async function usageCommand(flags: GlobalFlags, opts: UsageOptions): Promise<number> {
  // Reads the store only: a config with errors gets a warning, not an exit.
  const profile = profileOrExit(flags, { readOnly: true });
  if (typeof profile === "number") return profile;
  const dbPath = profile.home.paths.db;
  if (profile.config.store.backend === "sqlite" && !existsSync(dbPath)) {
    if (opts.session !== undefined) return noSession(opts.session);
    process.stdout.write(opts.by ? "no API calls yet\n" : "no sessions yet\n");
    return 0;
  }
  return readRecords(profile, async (records) => {
    if (opts.by) {
      process.stdout.write(await formatUsageTotals(records, opts.by, opts.days ?? DEFAULT_DAYS));
      return 0;
    }
    return opts.session === undefined
      ? await listRecent(records, opts.last)
      : await showSession(records, opts.session, opts.last, profile.config.agent.session_budget_seconds);
  });
}

async function listRecent(records: StoredRecords, last: number | undefined): Promise<number> {
  const limit = last === undefined || last <= 0 ? DEFAULT_SESSIONS : last;
  process.stdout.write(formatSessionsUsage(await records.recent({ limit })));
  return 0;
}

async function showSession(
  records: StoredRecords,
  id: string,
  last: number | undefined,
  budgetSeconds: number,
): Promise<number> {
  const session = await findSession(records, id);
  if (!session) return noSession(id);
  const calls = await records.usageForSession(session.id);
  const shown = last !== undefined && last > 0 && last < calls.length ? calls.slice(-last) : calls;
  if (!calls.length) process.stdout.write(`no API calls recorded for session ${session.id}\n`);
  process.stdout.write(formatUsage(session, shown, { firstNumber: calls.length - shown.length + 1 }));
  process.stdout.write(formatSessionTime(await records.activeTime(session.id), budgetSeconds));
  return 0;
}

/** The full id, the short id, or a unique prefix (session-ref.ts). */
async function findSession(records: StoredRecords, id: string): Promise<SessionRow | undefined> {
  const found = await resolveSession(records, id);
  return found.ok ? found.row : undefined;
}

function noSession(id: string): number {
  process.stderr.write(`iris: no session '${id}' (see iris usage or iris sessions list)\n`);
  return 2;
}
