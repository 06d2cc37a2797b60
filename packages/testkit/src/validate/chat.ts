/** Chat Completions: every assistant tool call is answered by tool messages directly after it. */
import { isObject, type RuleViolation, violation } from "./rule.js";

function callIds(message: Record<string, unknown>): unknown[] {
  const calls = message.tool_calls;
  if (!Array.isArray(calls)) return [];
  return calls.map((c) => (isObject(c) ? c.id : undefined));
}

export function validateChat(body: Record<string, unknown>): RuleViolation | undefined {
  const messages = body.messages;
  if (!Array.isArray(messages))
    return violation("chat.messages_missing", "messages", "messages must be an array");
  let pending = new Set<string>(); // ids of the latest assistant tool calls still unanswered
  let answerable = new Set<string>(); // ids of the latest assistant tool calls
  let callAt = -1;
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    const where = `messages[${i}]`;
    if (!isObject(m)) return violation("chat.message_not_object", where, "each message must be an object");
    // OpenAI's own pattern for the optional speaker name.
    if (m.name !== undefined && !(typeof m.name === "string" && /^[a-zA-Z0-9_-]{1,64}$/.test(m.name)))
      return violation(
        "chat.bad_name",
        `${where}.name`,
        `'name' must match ^[a-zA-Z0-9_-]+$, got ${JSON.stringify(m.name)}`,
      );
    if (m.role === "tool") {
      const id = m.tool_call_id;
      if (typeof id !== "string" || !answerable.has(id)) {
        return violation(
          "chat.result_without_call",
          where,
          `tool message with tool_call_id ${JSON.stringify(id)} does not answer a tool call of the assistant message directly before it`,
        );
      }
      pending.delete(id);
      continue;
    }
    if (pending.size > 0) {
      const later = messages
        .slice(i)
        .some((n) => isObject(n) && n.role === "tool" && pending.has(String(n.tool_call_id)));
      const ids = [...pending].join(", ");
      return later
        ? violation(
            "chat.message_between_call_and_result",
            where,
            `a ${String(m.role)} message sits between the tool calls of messages[${callAt}] and their results (${ids})`,
          )
        : violation(
            "chat.tool_call_without_result",
            `messages[${callAt}]`,
            `an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'; missing: ${ids}`,
          );
    }
    pending = new Set();
    answerable = new Set();
    if (m.role === "assistant") {
      const ids = callIds(m);
      for (const [k, id] of ids.entries()) {
        if (typeof id !== "string" || id === "") {
          return violation(
            "chat.empty_tool_call_id",
            `${where}.tool_calls[${k}]`,
            "tool call id must be a non-empty string",
          );
        }
      }
      pending = new Set(ids as string[]);
      answerable = new Set(ids as string[]);
      callAt = i;
    }
  }
  if (pending.size > 0) {
    return violation(
      "chat.tool_call_without_result",
      `messages[${callAt}]`,
      `an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'; missing: ${[...pending].join(", ")}`,
    );
  }
  return undefined;
}
