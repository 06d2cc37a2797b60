// `iris effects list|resolve` (SPEC D4): the tool effects a crash left unsettled, and how a person
// settles one after checking the outside world. Reads and writes the store without a model.

import type { EffectRow } from "@iris/host";
import type { GlobalFlags } from "../flags.js";
import { shortId } from "../session-ref.js";
import { withRecords } from "./with-records.js";

const when = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

function line(e: EffectRow): string {
  const cols = [
    e.id,
    `session ${shortId(e.sessionId)}`,
    e.tool,
    `step ${e.step}`,
    `started ${when(e.createdAt)}`,
    `args ${e.argsFingerprint.replace(/^sha256:/, "").slice(0, 12)}`,
    e.status === "started" ? "started (unresolved)" : e.status,
  ];
  const evidence = e.evidence ? `  evidence: ${e.evidence}` : "";
  return `${cols.join("  ")}${evidence}\n`;
}

export function effectsList(flags: GlobalFlags, all: boolean): Promise<number> {
  return withRecords(flags, async (records) => {
    const rows = await records.effects({ all });
    if (!rows.length) {
      process.stdout.write(all ? "no effect receipts\n" : "no unresolved effects\n");
      return 0;
    }
    for (const e of rows) process.stdout.write(line(e));
    if (!all)
      process.stdout.write(
        "\nsettle one after checking the outside state: iris effects resolve ID applied|not-applied --evidence TEXT\n",
      );
    return 0;
  });
}

const OUTCOMES = { applied: "applied", "not-applied": "not_applied", not_applied: "not_applied" } as const;

export async function effectsResolve(
  flags: GlobalFlags,
  id: string,
  outcome: string,
  evidence: string,
): Promise<number> {
  const status = OUTCOMES[outcome as keyof typeof OUTCOMES];
  if (!status) {
    process.stderr.write(`iris: outcome must be 'applied' or 'not-applied', got '${outcome}'\n`);
    return 2;
  }
  if (!evidence.trim()) {
    process.stderr.write("iris: --evidence must say what you checked (it is kept with the receipt)\n");
    return 2;
  }
  return withRecords(flags, async (records) => {
    const effect = await records.findEffect(id);
    if (!effect) {
      process.stderr.write(`iris: no effect '${id}' (see: iris effects list --all)\n`);
      return 2;
    }
    if (effect.status !== "started") {
      const resolved = effect.status === "applied" || effect.status === "not_applied";
      const state = resolved
        ? `already resolved as ${effect.status}`
        : `not unresolved (it ${effect.status})`;
      process.stderr.write(`iris: effect ${effect.id} is ${state}; nothing changed\n`);
      return 2;
    }
    const settled = await records.resolveEffect(effect.id, status, evidence.trim());
    process.stdout.write(`${settled.id} ${settled.tool}: resolved as ${settled.status}\n`);
    return 0;
  });
}
