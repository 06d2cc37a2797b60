// Routes cooling down after a failure (SPEC U4): kept in the store so every process honours them;
// doctor shows which and for how long, since they explain why a fallback answers.
import { existsSync } from "node:fs";
import { openStore, type RouteCooldownRow } from "@iris/store";
import type { Finding } from "./types.js";

export async function checkCooldowns(dbPath: string, now = Date.now()): Promise<Finding[]> {
  if (!existsSync(dbPath)) return [];
  let rows: RouteCooldownRow[];
  try {
    const store = openStore(dbPath);
    try {
      rows = await store.routeCooldowns.listActive(now);
    } finally {
      await store.close();
    }
  } catch {
    return []; // the history check reports a store that cannot be opened
  }
  return rows.map((r) => ({
    status: "warn" as const,
    subject: "route cooldown",
    message: `route ${r.routeKey} is cooling down for ${Math.ceil((r.untilMs - now) / 1000)} s more${r.reason ? ` (${r.reason})` : ""}; fallbacks answer meanwhile`,
  }));
}
