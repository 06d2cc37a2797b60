// Responses input items → the canonical conversation, after what previous_response_id or the
// named conversation holds (SPEC E3). function_call_output items must answer an open call.
import type { AssistantMessage, Message, UserMessage, UserPart } from "@iris/llm";
import { badRequest } from "./errors.js";
import { openCalls } from "./open-calls.js";
import { withoutProgressBlocks } from "./progress-strip.js";
import type { InputItem } from "./responses-schema.js";

const CLIENT_ORIGIN = { provider: "client", apiMode: "responses", model: "client" } as const;
const ZERO = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

export function convertResponsesInput(
  before: readonly Message[],
  input: string | InputItem[],
): { instructions: string; history: Message[]; input: UserMessage | null } {
  const out: Message[] = [...before];
  const instructions: string[] = [];
  const items: InputItem[] = typeof input === "string" ? [{ role: "user", content: input }] : input;
  let appendingCalls: AssistantMessage | undefined;
  items.forEach((item, i) => {
    if (item.type === "function_call") {
      if (!appendingCalls) {
        appendingCalls = {
          role: "assistant",
          parts: [],
          origin: CLIENT_ORIGIN,
          usage: ZERO,
          stopReason: "tool_calls",
        };
        out.push(appendingCalls);
      }
      appendingCalls.parts.push({
        type: "toolCall",
        callId: item.call_id,
        name: item.name,
        argumentsJson: item.arguments,
      });
      return;
    }
    appendingCalls = undefined;
    if (item.type === "function_call_output") {
      const call = openCalls(out).get(item.call_id)?.name;
      if (!call)
        throw badRequest(
          `input[${i}]: no open function call has call_id ${JSON.stringify(item.call_id)}`,
          `input[${i}].call_id`,
        );
      out.push({ role: "tool", callId: item.call_id, toolName: call, content: item.output, isError: false });
      return;
    }
    const parts: UserPart[] =
      typeof item.content === "string"
        ? [{ type: "text", text: item.content }]
        : item.content.map((p) =>
            p.type === "input_image" ? imageOf(p.image_url) : { type: "text", text: p.text },
          );
    const text = parts.map((p) => (p.type === "text" ? p.text : "")).join("");
    if (item.role === "system" || item.role === "developer") instructions.push(text);
    else if (item.role === "assistant")
      out.push({
        role: "assistant",
        parts: [{ type: "text", text: withoutProgressBlocks(text) }],
        origin: CLIENT_ORIGIN,
        usage: ZERO,
        stopReason: "end",
      });
    else out.push({ role: "user", content: typeof item.content === "string" ? item.content : parts });
  });
  const last = out.at(-1);
  if (last?.role === "user")
    return { instructions: instructions.join("\n\n"), history: out.slice(0, -1), input: last };
  if (last?.role === "tool") {
    const still = [...openCalls(out).keys()];
    if (still.length)
      throw badRequest(`input: function calls still without output: ${still.join(", ")}`, "input");
    return { instructions: instructions.join("\n\n"), history: out, input: null };
  }
  throw badRequest("input: the last item must be a user message or a function_call_output", "input");
}

function imageOf(url: string): UserPart {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return data
    ? { type: "image", mediaType: data[1] ?? "image/png", data: data[2] ?? "" }
    : { type: "image", mediaType: "image/png", url };
}
