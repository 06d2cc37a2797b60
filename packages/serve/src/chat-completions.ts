// POST /v1/chat/completions (SPEC E3): the whole agent behind the most common endpoint. The reply
// is the turn's answer; server-side tools run inside the turn; calls of the client's own tools
// come back as standard `tool_calls` and the next request's tool messages continue the turn.
import { randomUUID } from "node:crypto";
import { assistantText } from "@iris/llm";
import type { Context } from "hono";
import { answeredBy } from "./answered.js";
import { convertChatMessages, textOfContent, trailingTurn } from "./chat-history.js";
import { type ChatRequest, chatRequest } from "./chat-schema.js";
import { streamChat } from "./chat-stream.js";
import type { ServeDeps, ServeEnv } from "./deps.js";
import { clientToolSpecs, readBody } from "./request.js";
import { failIfUpstream, finishReasonOf } from "./turn-outcome.js";
import type { TurnOutcome, TurnSpec } from "./turns.js";
import { chatUsage, turnHeaders } from "./wire-usage.js";

export async function chatCompletions(c: Context<ServeEnv>, deps: ServeDeps): Promise<Response> {
  const req = await readBody(c, chatRequest);
  const route = deps.models.resolve(req.model);
  const spec = turnSpecOf(c, deps, req);
  const meta = { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model: req.model };
  if (req.stream)
    return streamChat(
      c,
      deps,
      { ...spec, ...(route ? { route } : {}) },
      meta,
      req.stream_options?.include_usage === true,
    );
  const release = await deps.limits.acquire(c.get("caller"), c.req.raw.signal);
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  c.req.raw.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const out = await deps.runner.run({ ...spec, ...(route ? { route } : {}), signal: controller.signal });
    failIfUpstream(out);
    c.set("complete", out.result.reason !== "user_cancelled");
    const answered = answeredBy(req.model, out);
    return c.json(completionBody({ ...meta, model: answered.model }, out), 200, {
      ...turnHeaders(out.result.costUsd, out.result.reason, out.sessionId),
      ...answered.headers,
    });
  } finally {
    c.req.raw.signal.removeEventListener("abort", onAbort);
    release();
  }
}

function turnSpecOf(c: Context<ServeEnv>, deps: ServeDeps, req: ChatRequest): Omit<TurnSpec, "signal"> {
  const clientTools = clientToolSpecs(
    (req.tools ?? []).map((t) => t.function),
    deps.ownToolNames,
    (i) => `tools[${i}].function.name`,
  );
  const sessionId = c.req.header("x-iris-session-id")?.trim();
  const caller = c.get("caller");
  const noTools = deps.models.toolless(req.model) || req.tool_choice === "none";
  const base = { caller, clientTools, ...(noTools ? { noTools } : {}) };
  if (sessionId) {
    const { input, answers } = trailingTurn(req.messages);
    const instructions = req.messages
      .filter((m) => m.role === "system" || m.role === "developer")
      .map((m) => textOfContent(m.content))
      .join("\n\n");
    return { ...base, conversation: { kind: "stored", sessionId, answers, instructions }, input };
  }
  const { instructions, history, input } = convertChatMessages(req.messages);
  return { ...base, conversation: { kind: "memory", history, instructions }, input };
}

function completionBody(meta: { id: string; created: number; model: string }, out: TurnOutcome) {
  const { result } = out;
  const toolCalls = out.clientCalls.map((call) => ({
    id: call.callId,
    type: "function" as const,
    function: { name: call.name, arguments: call.argumentsJson },
  }));
  const content = toolCalls.length
    ? (result.message ? assistantText(result.message) : "") || null
    : result.text;
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content,
          refusal: null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(out),
      },
    ],
    usage: chatUsage(result.usage),
  };
}
