// Smart approval mode (SPEC T4, issue 13): a flagged command is judged by an auxiliary model call
// through the resilient client (retries and the fallback chain), on `approvals.judge_model` or
// the main route. The judge sees the command, the working directory and why it was flagged, and
// answers approve, deny or ask. Anything else — an error, a refusal, an unclear answer — is ask.
import type { ResilientModelClient } from "@iris/agent";
import { type AssistantMessage, assistantText } from "@iris/llm";
import type { ApprovalJudge, ApprovalRequest, JudgeVerdict } from "@iris/tools";

export const JUDGE_SYSTEM_PROMPT = [
  "You decide whether a command an AI coding agent wants to run may run without asking its user.",
  "Answer with exactly one word:",
  "approve — clearly low-risk and confined to the working directory, such as deleting build output,",
  "  caches or dependencies that can be rebuilt (node_modules, dist, target, __pycache__);",
  "deny — destructive beyond repair, touching the system, credentials or other people's data, or",
  "  sending data out;",
  "ask — anything else, or when you are not sure.",
].join("\n");

export function judgePrompt(request: ApprovalRequest): string {
  return [
    `Working directory: ${request.cwd ?? "(unknown)"}`,
    `Tool: ${request.tool}`,
    "Command:",
    request.command,
    `Flagged because: ${request.reason}`,
    "Your answer (approve, deny or ask):",
  ].join("\n");
}

/** The first of approve/deny/ask the answer starts with; anything else escalates to the user. */
export function parseVerdict(text: string): JudgeVerdict {
  const m = /^\W*(approve|deny|ask)\b/i.exec(text.trim());
  const word = m?.[1]?.toLowerCase();
  return word === "approve" || word === "deny" ? word : "escalate";
}

/** Records what the judge's call cost as the session's usage (F3: every API call counts). */
export type RecordJudgeCall = (
  message: AssistantMessage,
  costUsd: number,
  latencyMs: number,
) => Promise<void> | void;

export function makeApprovalJudge(
  model: () => ResilientModelClient,
  recordCall: RecordJudgeCall = () => {},
): ApprovalJudge {
  return async (request) => {
    const result = await model().call(
      {
        system: JUDGE_SYSTEM_PROMPT,
        messages: [{ role: "user", content: judgePrompt(request) }],
        maxOutputTokens: 16,
      },
      { signal: AbortSignal.timeout(60_000), onEvent: () => {}, stepId: 0 },
    );
    if (!result.ok) return "escalate";
    await recordCall(result.message, result.costUsd, result.latencyMs);
    return parseVerdict(assistantText(result.message));
  };
}
