// The tool results a receipt turns into when the tool is not (re-)run (SPEC D4, H3).
import type { ToolResultMessage } from "@iris/llm";
import type { EffectRow } from "@iris/store";

export const EFFECT_OUTCOME_UNCERTAIN = "effect_outcome_uncertain";

export interface ToolResultBody {
  content: string;
  isError: boolean;
  uncertain?: true;
}

export function uncertainText(effect: EffectRow): string {
  return (
    `${EFFECT_OUTCOME_UNCERTAIN}: ${effect.tool} (receipt ${effect.id}) started but never reported back ` +
    "(the process stopped while it ran). It may or may not have taken effect; nothing was re-executed. " +
    `Check the outside state before retrying; a person settles it with: iris effects resolve ${effect.id} ` +
    "applied|not-applied --evidence TEXT"
  );
}

export function uncertainBody(effect: EffectRow): ToolResultBody {
  return { content: JSON.stringify({ error: uncertainText(effect), effect_id: effect.id }), isError: true };
}

/** The stored outcome of a finished receipt, returned instead of running the tool again. */
export function replayBody(effect: EffectRow): ToolResultBody {
  if (effect.status === "failed")
    return {
      content: JSON.stringify({ error: `tool ${effect.tool} failed: ${effect.error ?? ""}` }),
      isError: true,
    };
  const stored = effect.result as Partial<ToolResultBody> | null;
  if (stored && typeof stored.content === "string" && typeof stored.isError === "boolean")
    return { content: stored.content, isError: stored.isError };
  return { content: JSON.stringify(effect.result ?? null), isError: false };
}

/** A receipt a person settled: say what they found; the tool is not run again. */
export function resolvedBody(effect: EffectRow): ToolResultBody {
  const applied = effect.status === "applied";
  return {
    content: JSON.stringify({
      [applied ? "result" : "error"]:
        `${effect.tool} (receipt ${effect.id}) was settled by a person as ${applied ? "applied" : "not applied"}; ` +
        `evidence: ${effect.evidence ?? ""}. It was not re-executed.`,
    }),
    isError: !applied,
  };
}

export const NOT_EXECUTED_CRASH = "the process stopped before it ran";

export function toResultMessage(callId: string, toolName: string, body: ToolResultBody): ToolResultMessage {
  return { role: "tool", callId, toolName, content: body.content, isError: body.isError };
}
