// Chat Completions has no standard way to ask for reasoning, and the strict servers reject a
// field they do not know. Each dialect is one real service's top-level parameters and its
// reasoning rules, with the 400 body that service answers.
//   openai      `reasoning_effort`; any unknown argument is "Unrecognized request argument"
//   openrouter  `reasoning: {effort | max_tokens, exclude, enabled}`, never effort and max_tokens both;
//               signed `reasoning_details` sent back must be ones this instance issued (the
//               upstream Claude rejects a thinking signature it cannot verify)
//   deepseek    `thinking: {type}` + `reasoning_effort`; in thinking mode (the default) every
//               assistant message with tool_calls must carry `reasoning_content`
import { isObject, type Json } from "../validate/rule.js";
import type { BlobSigner } from "./signing.js";

export type ChatDialect = "openai" | "openrouter" | "deepseek";

export interface ChatParamRejection {
  rule: string;
  where: string;
  body: unknown;
}

const OPENAI_PARAMS = [
  "model",
  "messages",
  "audio",
  "frequency_penalty",
  "function_call",
  "functions",
  "logit_bias",
  "logprobs",
  "max_completion_tokens",
  "max_tokens",
  "metadata",
  "modalities",
  "n",
  "parallel_tool_calls",
  "prediction",
  "presence_penalty",
  "prompt_cache_key",
  "prompt_cache_retention",
  "reasoning_effort",
  "response_format",
  "safety_identifier",
  "seed",
  "service_tier",
  "stop",
  "store",
  "stream",
  "stream_options",
  "temperature",
  "tool_choice",
  "tools",
  "top_logprobs",
  "top_p",
  "user",
  "verbosity",
  "web_search_options",
];
const OPENROUTER_EXTRA = [
  "reasoning",
  "provider",
  "transforms",
  "models",
  "route",
  "usage",
  "plugins",
  "top_k",
  "min_p",
  "top_a",
  "repetition_penalty",
  "include_reasoning",
  "debug",
];
const KNOWN: Record<ChatDialect, ReadonlySet<string>> = {
  openai: new Set(OPENAI_PARAMS),
  openrouter: new Set([...OPENAI_PARAMS.filter((p) => p !== "reasoning_effort"), ...OPENROUTER_EXTRA]),
  deepseek: new Set([
    "model",
    "messages",
    "thinking",
    "reasoning_effort",
    "frequency_penalty",
    "max_tokens",
    "presence_penalty",
    "response_format",
    "stop",
    "stream",
    "stream_options",
    "temperature",
    "top_p",
    "tools",
    "tool_choice",
    "logprobs",
    "top_logprobs",
    "parallel_tool_calls",
    "user",
  ]),
};
const EFFORTS: Record<ChatDialect, readonly string[]> = {
  openai: ["none", "minimal", "low", "medium", "high", "xhigh"],
  openrouter: ["none", "minimal", "low", "medium", "high", "xhigh"],
  deepseek: ["minimal", "low", "medium", "high", "xhigh", "max", "ultra"],
};

function openAiError(message: string, param: string | null, code: string | null): unknown {
  return { error: { message, type: "invalid_request_error", param, code } };
}

function reject(
  rule: string,
  where: string,
  message: string,
  code: string | null = null,
): ChatParamRejection {
  return { rule, where, body: openAiError(message, where, code) };
}

function checkEffort(dialect: ChatDialect, value: unknown, where: string): ChatParamRejection | undefined {
  if (typeof value === "string" && EFFORTS[dialect].includes(value)) return undefined;
  const allowed = EFFORTS[dialect].map((e) => `'${e}'`).join(", ");
  return reject(
    "chat.invalid_reasoning_effort",
    where,
    `Invalid value: ${JSON.stringify(value)}. Supported values are: ${allowed}.`,
    "invalid_value",
  );
}

function checkOpenRouterReasoning(value: unknown): ChatParamRejection | undefined {
  if (!isObject(value)) return reject("openrouter.bad_reasoning", "reasoning", "reasoning must be an object");
  for (const key of Object.keys(value)) {
    if (!["effort", "max_tokens", "exclude", "enabled"].includes(key))
      return reject(
        "openrouter.bad_reasoning",
        `reasoning.${key}`,
        `Unrecognized key in reasoning: '${key}'`,
      );
  }
  if (value.effort !== undefined && value.max_tokens !== undefined)
    return reject(
      "openrouter.bad_reasoning",
      "reasoning",
      "Only one of reasoning.effort and reasoning.max_tokens may be specified",
    );
  if (value.effort !== undefined) return checkEffort("openrouter", value.effort, "reasoning.effort");
  if (value.max_tokens !== undefined && !(Number.isInteger(value.max_tokens) && Number(value.max_tokens) > 0))
    return reject(
      "openrouter.bad_reasoning",
      "reasoning.max_tokens",
      "reasoning.max_tokens must be a positive integer",
    );
  return undefined;
}

function checkOpenRouterDetails(body: Json, signer: BlobSigner): ChatParamRejection | undefined {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    if (!isObject(m) || m.role !== "assistant" || m.reasoning_details === undefined) continue;
    if (!Array.isArray(m.reasoning_details))
      return reject(
        "openrouter.bad_reasoning_details",
        `messages[${i}].reasoning_details`,
        "reasoning_details must be an array",
      );
    for (const [j, d] of m.reasoning_details.entries()) {
      if (!isObject(d) || typeof d.signature !== "string") continue;
      const text = typeof d.text === "string" ? d.text : "";
      if (!signer.verify("sig", d.signature, text))
        return reject(
          "openrouter.foreign_reasoning_signature",
          `messages[${i}].reasoning_details[${j}]`,
          `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`,
        );
    }
  }
  return undefined;
}

function checkDeepSeek(body: Json): ChatParamRejection | undefined {
  const thinking = body.thinking;
  if (
    thinking !== undefined &&
    !(isObject(thinking) && (thinking.type === "enabled" || thinking.type === "disabled"))
  )
    return reject("deepseek.bad_thinking", "thinking", "thinking.type must be 'enabled' or 'disabled'");
  if (isObject(thinking) && thinking.type === "disabled") return undefined;
  // Between two user messages where the model called tools, every assistant message's reasoning
  // must be passed back (DeepSeek's thinking-mode guide), not only the ones with tool calls.
  const messages: unknown[] = Array.isArray(body.messages) ? body.messages : [];
  let spanStart = 0;
  for (let i = 0; i <= messages.length; i++) {
    const m = messages[i];
    if (i < messages.length && !(isObject(m) && m.role === "user")) continue;
    const span = messages.slice(spanStart, i);
    const calledTools = span.some(
      (s) => isObject(s) && s.role === "assistant" && Array.isArray(s.tool_calls) && s.tool_calls.length > 0,
    );
    for (let j = 0; calledTools && j < span.length; j++) {
      const s = span[j];
      if (!isObject(s) || s.role !== "assistant") continue;
      if (typeof s.reasoning_content !== "string" || s.reasoning_content === "")
        return reject(
          "deepseek.missing_reasoning_content",
          `messages[${spanStart + j}].reasoning_content`,
          `Missing \`reasoning_content\` field in the assistant message at message index ${spanStart + j}. ` +
            "In thinking mode it must be passed back for the assistant messages of a turn that called tools.",
        );
    }
    spanStart = i + 1;
  }
  return undefined;
}

/**
 * The first parameter this dialect would answer with a 400. `reasoningModels`, when given, are
 * the only models that take reasoning parameters (OpenAI rejects them on other models).
 */
export function checkChatParams(
  dialect: ChatDialect,
  body: Json,
  reasoningModels: readonly string[] | undefined,
  signer: BlobSigner,
): ChatParamRejection | undefined {
  for (const key of Object.keys(body)) {
    if (!KNOWN[dialect].has(key))
      return reject("chat.unknown_parameter", key, `Unrecognized request argument supplied: ${key}`);
  }
  const asksReasoning = ["reasoning_effort", "reasoning", "thinking"].some((k) => body[k] !== undefined);
  if (asksReasoning && reasoningModels !== undefined && !reasoningModels.includes(String(body.model))) {
    const param = ["reasoning_effort", "reasoning", "thinking"].find((k) => body[k] !== undefined) ?? "";
    return reject(
      "chat.reasoning_unsupported",
      param,
      `Unsupported parameter: '${param}' is not supported with this model.`,
      "unsupported_parameter",
    );
  }
  if (body.reasoning_effort !== undefined) {
    const bad = checkEffort(dialect, body.reasoning_effort, "reasoning_effort");
    if (bad) return bad;
  }
  if (dialect === "openrouter") {
    const bad = body.reasoning === undefined ? undefined : checkOpenRouterReasoning(body.reasoning);
    return bad ?? checkOpenRouterDetails(body, signer);
  }
  if (dialect === "deepseek") return checkDeepSeek(body);
  return undefined;
}
