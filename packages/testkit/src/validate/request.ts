/** Entry point of shape validation: body basics first, then the api mode's own rules. */
import type { ApiMode } from "../types.js";
import { validateAnthropic } from "./anthropic.js";
import { validateChat } from "./chat.js";
import { validateImages } from "./images.js";
import { validateResponses } from "./responses.js";
import { isObject, type RuleViolation, violation } from "./rule.js";

const INPUT_FIELD: Partial<Record<ApiMode, string>> = {
  chat_completions: "messages",
  responses: "input",
  anthropic_messages: "messages",
};

/** Parse failure is reported apart so the basic rule fires even with validation off. */
export function checkBody(mode: ApiMode, rawBody: Buffer, body: unknown): RuleViolation | undefined {
  const field = INPUT_FIELD[mode];
  if (field === undefined) return undefined;
  if (body === undefined) {
    const preview = rawBody.subarray(0, 40).toString("utf8");
    return violation(
      "body.not_json",
      "body",
      `request body is not valid JSON (starts with ${JSON.stringify(preview)})`,
    );
  }
  if (!isObject(body)) return violation("body.not_object", "body", "request body must be a JSON object");
  if (typeof body.model !== "string" || body.model === "") {
    return violation("body.model_missing", "model", "you must provide a model parameter");
  }
  if (!(field in body))
    return violation(`body.${field}_missing`, field, `missing required parameter: '${field}'`);
  return undefined;
}

export function checkShape(
  mode: ApiMode,
  body: Record<string, unknown>,
  issuedCallIds: ReadonlySet<string>,
): RuleViolation | undefined {
  return modeShape(mode, body, issuedCallIds) ?? validateImages(mode, body);
}

function modeShape(
  mode: ApiMode,
  body: Record<string, unknown>,
  issuedCallIds: ReadonlySet<string>,
): RuleViolation | undefined {
  switch (mode) {
    case "chat_completions":
      return validateChat(body);
    case "responses":
      return validateResponses(body, issuedCallIds);
    case "anthropic_messages":
      return validateAnthropic(body);
    default:
      return undefined;
  }
}
