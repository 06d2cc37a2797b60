/** Anthropic Messages: strict user/assistant alternation and tool_use ↔ tool_result pairing. */
import { blocksOf, isObject, type Json, type RuleViolation, violation } from "./rule.js";

const MAX_CACHE_BREAKPOINTS = 4;

function toolUseIds(message: Json): string[] {
  return blocksOf(message.content)
    .filter((b) => b.type === "tool_use")
    .map((b) => String(b.id ?? ""));
}

function countCacheControl(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countCacheControl(v), 0);
  if (!isObject(value)) return 0;
  let n = isObject(value.cache_control) ? 1 : 0;
  if (Array.isArray(value.content)) n += countCacheControl(value.content);
  return n;
}

export function validateAnthropic(body: Json): RuleViolation | undefined {
  const messages = body.messages;
  if (!Array.isArray(messages))
    return violation("anthropic.messages_missing", "messages", "messages must be an array");
  let expectedResults: string[] = []; // tool_use ids of the previous assistant turn
  let previousRole: unknown;
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    const where = `messages[${i}]`;
    if (!isObject(m))
      return violation("anthropic.message_not_object", where, "each message must be an object");
    if (m.role === "system") {
      return violation(
        "anthropic.system_role_in_messages",
        `${where}.role`,
        "use the top-level system parameter",
      );
    }
    if (m.role !== "user" && m.role !== "assistant") {
      return violation(
        "anthropic.bad_role",
        `${where}.role`,
        `role must be user or assistant, got ${JSON.stringify(m.role)}`,
      );
    }
    if (i === 0 && m.role !== "user") {
      return violation("anthropic.first_message_not_user", where, "the first message must use the user role");
    }
    if (m.role === previousRole) {
      return violation(
        m.role === "user" ? "anthropic.consecutive_user" : "anthropic.consecutive_assistant",
        where,
        `roles must alternate between user and assistant; messages[${i - 1}] is also ${m.role}`,
      );
    }
    const results = blocksOf(m.content).filter((b) => b.type === "tool_result");
    if (m.role === "user") {
      for (const r of results) {
        if (!expectedResults.includes(String(r.tool_use_id))) {
          return violation(
            "anthropic.result_without_call",
            where,
            `unexpected tool_use_id ${JSON.stringify(r.tool_use_id)} in tool_result blocks: each tool_result must answer a tool_use of the previous message`,
          );
        }
      }
      const answered = new Set(results.map((r) => String(r.tool_use_id)));
      const missing = expectedResults.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return violation(
          "anthropic.tool_use_without_result",
          `messages[${i - 1}]`,
          `tool_use ids were found without tool_result blocks immediately after: ${missing.join(", ")}`,
        );
      }
      expectedResults = [];
    } else {
      if (results.length > 0) {
        return violation(
          "anthropic.tool_result_in_assistant",
          where,
          "tool_result blocks belong in user messages",
        );
      }
      expectedResults = toolUseIds(m);
      if (expectedResults.some((id) => id === "")) {
        return violation("anthropic.empty_tool_use_id", where, "tool_use blocks need a non-empty id");
      }
    }
    previousRole = m.role;
  }
  if (expectedResults.length > 0) {
    return violation(
      "anthropic.tool_use_without_result",
      `messages[${messages.length - 1}]`,
      `tool_use ids were found without tool_result blocks immediately after: ${expectedResults.join(", ")}`,
    );
  }
  const breakpoints =
    countCacheControl(body.system) + countCacheControl(body.tools) + countCacheControl(body.messages);
  if (breakpoints > MAX_CACHE_BREAKPOINTS) {
    return violation(
      "anthropic.too_many_cache_breakpoints",
      "cache_control",
      `a maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided; found ${breakpoints}`,
    );
  }
  return undefined;
}
