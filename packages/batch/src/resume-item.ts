// What a killed run left of one item (SPEC D4, E4): its JSONL conversation log holds the turn as
// far as it got, with a receipt for every tool call that began. Resume never starts that item
// from scratch, which would run its recorded effects again; it repairs the log as the store's
// resume does (finished calls get their recorded result, calls without a receipt never ran) and
// then continues the recorded turn — or, when a call began and never reported back, ends the
// item as effect_outcome_uncertain without calling the model or the tool again.
import { existsSync, rmSync } from "node:fs";
import { EFFECT_OUTCOME_UNCERTAIN, JsonlConversation } from "@iris/host";
import type { Message } from "@iris/llm";
import type { BatchItem } from "./input.js";

export type LeftOver =
  /** Nothing recorded (or a log of another prompt, removed): the item runs from the start. */
  | { kind: "fresh" }
  /** The model had given its final answer: the row is read from the log as it is. */
  | { kind: "answered"; log: JsonlConversation; rounds: number }
  /** A call may have taken effect: the item ends here. */
  | { kind: "uncertain"; log: JsonlConversation; rounds: number; error: string }
  /** The turn goes on from the repaired log (`send(null)`). */
  | { kind: "continue"; rounds: number; notes: string[] };

/** Model replies in a history (the notes a repair wrote are not the model's). */
export function roundsIn(history: readonly Message[]): number {
  return history.filter((m) => m.role === "assistant" && m.origin.provider !== "iris").length;
}

function promptOf(history: readonly Message[]): string | undefined {
  for (const m of history)
    if (m.role === "user") return typeof m.content === "string" ? m.content : undefined;
  return undefined;
}

export async function leftOverOf(item: BatchItem, path: string): Promise<LeftOver> {
  if (!existsSync(path)) return { kind: "fresh" };
  const log = new JsonlConversation(path);
  const history = await log.history();
  // A log without this item's prompt (not written yet, or the line was edited and --force given).
  if (promptOf(history) !== item.prompt) {
    rmSync(path, { force: true });
    return { kind: "fresh" };
  }
  const repaired = await log.repairInterruptedCalls();
  const rounds = roundsIn(await log.history());
  const uncertain = repaired.filter((r) => r.outcome === "uncertain");
  if (uncertain.length)
    return {
      kind: "uncertain",
      log,
      rounds,
      error: `${EFFECT_OUTCOME_UNCERTAIN}: ${uncertain.map((u) => u.message).join("; ")}`,
    };
  const last = (await log.history()).at(-1);
  if (last?.role === "assistant" && !last.parts.some((p) => p.type === "toolCall") && repaired.length === 0)
    return { kind: "answered", log, rounds };
  return { kind: "continue", rounds, notes: repaired.map((r) => r.message) };
}
