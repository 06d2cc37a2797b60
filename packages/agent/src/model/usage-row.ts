// The usage row of one billed call (SPEC F3), the same for a turn's calls and the calls made
// beside a turn (compression summaries, smart approvals' judge).
import type { AssistantMessage } from "@iris/llm";
import type { UsageRow } from "../ports.js";

export function usageRowOf(
  taskId: string,
  message: AssistantMessage,
  costUsd: number,
  latencyMs: number,
  status: UsageRow["status"] = "ok",
): UsageRow {
  const { provider, model } = message.origin;
  return { taskId, provider, model, usage: message.usage, costUsd, latencyMs, status };
}
