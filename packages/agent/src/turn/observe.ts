// Step 9 bookkeeping: checkpoint the reply, decide whether the turn ends, and after the tools ran,
// watch for convergence and inject user messages that arrived mid-turn (SPEC L5, L9).
import {
  type AssistantMessage,
  assistantText,
  type ToolCallPart,
  textOf,
  toolCallsOf,
  type UserMessage,
} from "@iris/llm";
import type { TurnEnv } from "./env.js";
import { notExecuted } from "./run-tools.js";
import type { TurnState } from "./types.js";

export interface ObservedReply {
  nodeId?: string;
  calls: ToolCallPart[];
}

export async function observeReply(
  env: TurnEnv,
  state: TurnState,
  message: AssistantMessage,
): Promise<ObservedReply> {
  state.rounds += 1;
  state.lastMessage = message;
  const calls = toolCallsOf(message);
  const text = assistantText(message);
  const hasContent = calls.length > 0 || text.trim() !== "";
  if (message.stopReason === "refusal" || message.stopReason === "content_filter") {
    if (hasContent) await commit(env, state, message);
    // Calls carried by a refused or filtered reply never run; each gets its result now (H3).
    const why = "the reply was refused or stopped by the content filter";
    for (const call of calls) {
      const result = notExecuted(call, why);
      await env.log.append(result);
      state.messages.push(result);
    }
    state.termination = { reason: "model_refusal", text: refusalText(message, text) };
    return { calls: [] };
  }
  if (!hasContent && message.stopReason !== "pause") {
    const where = `${message.origin.provider}/${message.origin.model}`;
    state.termination = {
      reason: "llm_error",
      text: `The model ${where} returned an empty reply (stop reason: ${message.stopReason}).`,
      error: {
        kind: "invalid_response",
        message: "empty reply",
        retryable: true,
        // A reply cut at the output token limit before it said anything (all reasoning, say).
        ...(message.stopReason === "max_tokens" ? { code: "max_tokens" } : {}),
      },
    };
    return { calls: [] };
  }
  const nodeId = hasContent ? await commit(env, state, message) : undefined;
  if (!calls.length && message.stopReason !== "pause") {
    if (message.stopReason === "max_tokens")
      env.events.emit("status", { level: "warn", message: "The answer was cut at the output token limit." });
    state.termination = { reason: "natural", text };
  }
  return { ...(nodeId ? { nodeId } : {}), calls };
}

async function commit(env: TurnEnv, state: TurnState, message: AssistantMessage): Promise<string> {
  const id = await env.log.append(message);
  state.messages.push(message);
  return id;
}

function refusalText(message: AssistantMessage, text: string): string {
  const where = `${message.origin.provider}/${message.origin.model}`;
  const why = message.refusal?.trim() || text.trim();
  const kind =
    message.stopReason === "content_filter"
      ? "the provider's content filter stopped the answer"
      : "the model declined to answer";
  return why ? `${where}: ${kind}: ${why}` : `${where}: ${kind} (no explanation was given).`;
}

/** After every result of the round: convergence, then mid-turn user messages (L9). */
export async function observeRound(
  env: TurnEnv,
  state: TurnState,
  outcomes: { name: string; argumentsJson: string; isError: boolean }[],
): Promise<void> {
  if (env.convergence.observe(outcomes)) {
    const last = outcomes[outcomes.length - 1];
    state.termination = {
      reason: "convergence_detected",
      text: `Stopped: the same failing call (${last?.name ?? "?"}) was repeated without progress.`,
    };
    return;
  }
  if (!state.pendingUser.length) return;
  const merged: UserMessage =
    state.pendingUser.length === 1
      ? state.pendingUser[0]!
      : {
          role: "user",
          content: state.pendingUser
            .map((m) => (m.name ? `${m.name}: ` : "") + textOf(m.content))
            .join("\n\n"),
        };
  state.pendingUser = [];
  await env.log.append(merged);
  state.messages.push(merged);
}
