/** Responses: input items pair function_call with function_call_output and carry no response-only fields. */
import { isObject, type RuleViolation, violation } from "./rule.js";

/** Fields the API puts on output items but rejects when an input item carries them. */
const RESPONSE_ONLY_FIELDS = ["status", "created_at", "incomplete_details"] as const;

/**
 * @param issuedCallIds call ids this server handed out; with `previous_response_id` an output may
 *   answer a call that is not repeated in `input`.
 */
export function validateResponses(
  body: Record<string, unknown>,
  issuedCallIds: ReadonlySet<string>,
): RuleViolation | undefined {
  const input = body.input;
  if (typeof input === "string") return undefined;
  if (!Array.isArray(input))
    return violation("responses.input_missing", "input", "input must be a string or an array");
  const chained = typeof body.previous_response_id === "string";
  const calls = new Map<string, number>(); // call_id → index of its function_call
  const answered = new Set<string>();
  for (let i = 0; i < input.length; i++) {
    const item: unknown = input[i];
    const where = `input[${i}]`;
    if (!isObject(item))
      return violation("responses.item_not_object", where, "each input item must be an object");
    for (const field of RESPONSE_ONLY_FIELDS) {
      if (field in item) {
        return violation(
          "responses.response_only_field",
          `${where}.${field}`,
          `input items must not carry '${field}' (a field of output items)`,
        );
      }
    }
    const type = item.type ?? (typeof item.role === "string" ? "message" : undefined);
    if (type === "function_call") {
      const callId = item.call_id;
      if (typeof callId !== "string" || callId === "") {
        return violation(
          "responses.empty_call_id",
          `${where}.call_id`,
          "function_call needs a non-empty call_id",
        );
      }
      calls.set(callId, i);
    } else if (type === "function_call_output") {
      const callId = item.call_id;
      const known =
        typeof callId === "string" && (calls.has(callId) || (chained && issuedCallIds.has(callId)));
      if (!known) {
        return violation(
          "responses.unknown_call_id",
          `${where}.call_id`,
          `no tool call found for function call output with call_id ${JSON.stringify(callId)}`,
        );
      }
      answered.add(callId);
    } else if (type === "reasoning") {
      if (typeof item.id !== "string" && typeof item.encrypted_content !== "string") {
        return violation(
          "responses.reasoning_without_encrypted_content",
          where,
          "a reasoning item without an id must carry encrypted_content",
        );
      }
    }
  }
  for (const [callId, index] of calls) {
    if (!answered.has(callId)) {
      return violation(
        "responses.call_without_output",
        `input[${index}]`,
        `no tool output found for function call ${callId}`,
      );
    }
  }
  return undefined;
}
