// Reasoning a request sends back must be reasoning this server issued (SPEC H4): a Responses
// reasoning item needs encrypted_content this instance signed (with store:false there is nothing
// to look a bare id up in); an Anthropic thinking block needs this instance's signature over its
// text. The bodies are the real APIs' 400 answers.
import type { ApiMode } from "../types.js";
import { blocksOf, isObject } from "../validate/rule.js";
import type { BlobSigner } from "./signing.js";

export interface ReasoningRejection {
  rule: string;
  where: string;
  body: unknown;
}

function openAiError(message: string, code: string | null, param: string | null): unknown {
  return { error: { message, type: "invalid_request_error", param, code } };
}

function checkResponses(body: Record<string, unknown>, signer: BlobSigner): ReasoningRejection | undefined {
  if (!Array.isArray(body.input)) return undefined;
  const stored = body.store !== false;
  for (let i = 0; i < body.input.length; i++) {
    const item: unknown = body.input[i];
    if (!isObject(item) || item.type !== "reasoning") continue;
    const where = `input[${i}]`;
    const id = typeof item.id === "string" ? item.id : "";
    const enc = item.encrypted_content;
    if (typeof enc === "string") {
      if (!signer.verify("enc", enc)) {
        return {
          rule: "responses.foreign_encrypted_content",
          where,
          body: openAiError(
            `The encrypted content for item ${id || where} could not be verified.`,
            "invalid_encrypted_content",
            null,
          ),
        };
      }
    } else if (!stored) {
      return {
        rule: "responses.reasoning_not_persisted",
        where,
        body: openAiError(
          `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. ` +
            "Try again with `store` set to true, or remove this item from your input.",
          null,
          "input",
        ),
      };
    }
  }
  return undefined;
}

/**
 * With thinking enabled, a tool loop in progress (the last user turn answers tool_use blocks)
 * needs the assistant turn it answers to open with a thinking block.
 */
function checkThinkingLoop(
  body: Record<string, unknown>,
  messages: unknown[],
): ReasoningRejection | undefined {
  if (!isObject(body.thinking) || body.thinking.type !== "enabled") return undefined;
  const last = messages[messages.length - 1];
  const prev = messages[messages.length - 2];
  if (!isObject(last) || !isObject(prev) || prev.role !== "assistant") return undefined;
  if (!blocksOf(last.content).some((b) => b.type === "tool_result")) return undefined;
  const first = blocksOf(prev.content)[0];
  if (first?.type === "thinking" || first?.type === "redacted_thinking") return undefined;
  const i = messages.length - 2;
  return {
    rule: "anthropic.thinking_loop_without_thinking",
    where: `messages[${i}].content[0]`,
    body: {
      type: "error",
      error: {
        type: "invalid_request_error",
        message:
          `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found ` +
          `\`${String(first?.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start ` +
          "with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). " +
          "We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`.",
      },
    },
  };
}

function checkAnthropic(body: Record<string, unknown>, signer: BlobSigner): ReasoningRejection | undefined {
  if (!Array.isArray(body.messages)) return undefined;
  const loop = checkThinkingLoop(body, body.messages);
  if (loop) return loop;
  for (let i = 0; i < body.messages.length; i++) {
    const m: unknown = body.messages[i];
    if (!isObject(m) || m.role !== "assistant") continue;
    const blocks = blocksOf(m.content);
    for (let j = 0; j < blocks.length; j++) {
      const b = blocks[j] as Record<string, unknown>;
      const ok =
        b.type === "thinking"
          ? typeof b.signature === "string" &&
            signer.verify("sig", b.signature, typeof b.thinking === "string" ? b.thinking : "")
          : b.type === "redacted_thinking"
            ? typeof b.data === "string" && signer.verify("red", b.data)
            : true;
      if (!ok) {
        const field = b.type === "thinking" ? "signature" : "data";
        return {
          rule: "anthropic.foreign_thinking_signature",
          where: `messages[${i}].content[${j}]`,
          body: {
            type: "error",
            error: {
              type: "invalid_request_error",
              message: `messages.${i}.content.${j}: Invalid \`${field}\` in \`${String(b.type)}\` block`,
            },
          },
        };
      }
    }
  }
  return undefined;
}

export function checkReasoning(
  mode: ApiMode,
  body: Record<string, unknown>,
  signer: BlobSigner,
): ReasoningRejection | undefined {
  if (mode === "responses") return checkResponses(body, signer);
  if (mode === "anthropic_messages") return checkAnthropic(body, signer);
  return undefined;
}

/** Whether the reply may carry encrypted reasoning (Responses) or thinking blocks (Anthropic). */
export function reasoningAsked(mode: ApiMode, body: Record<string, unknown>): boolean {
  if (mode === "responses")
    return Array.isArray(body.include) && body.include.includes("reasoning.encrypted_content");
  if (mode === "anthropic_messages") return isObject(body.thinking) && body.thinking.type === "enabled";
  return true;
}
