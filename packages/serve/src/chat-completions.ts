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
  // The request's own signal: the client going away stops the turn (a stream gets its own).
  const spec = turnSpecOf(c, deps, req, c.req.raw.signal);
  const meta = { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model: req.model };
  if (req.stream) return streamChat(c, deps, spec, meta, req.stream_options?.include_usage === true);
  const release = await deps.limits.acquire(c.get("caller"), spec.signal);
  try {
    const out = await deps.runner.run(spec);
    failIfUpstream(out);
    c.set("complete", out.result.reason !== "user_cancelled");
    const answered = answeredBy(req.model, out);
    return c.json(completionBody({ ...meta, model: answered.model }, out), 200, {
      ...turnHeaders(out.result.costUsd, out.result.reason, out.sessionId),
      ...answered.headers,
    });
  } finally {
    release();
  }
}

/** Written field by field: spreads here were a share of every request's own cost. */
function turnSpecOf(c: Context<ServeEnv>, deps: ServeDeps, req: ChatRequest, signal: AbortSignal): TurnSpec {
  const route = deps.models.resolve(req.model);
  const clientTools = clientToolSpecs(
    (req.tools ?? []).map((t) => t.function),
    deps.ownToolNames,
    (i) => `tools[${i}].function.name`,
  );
  const sessionId = c.req.header("x-iris-session-id")?.trim();
  const caller = c.get("caller");
  const noTools = deps.models.toolless(req.model) || req.tool_choice === "none";
  let spec: TurnSpec;
  if (sessionId) {
    const { input, answers } = trailingTurn(req.messages);
    const instructions = req.messages
      .filter((m) => m.role === "system" || m.role === "developer")
      .map((m) => textOfContent(m.content))
      .join("\n\n");
    spec = {
      caller,
      clientTools,
      conversation: { kind: "stored", sessionId, answers, instructions },
      input,
      signal,
    };
  } else {
    const { instructions, history, input } = convertChatMessages(req.messages);
    spec = { caller, clientTools, conversation: { kind: "memory", history, instructions }, input, signal };
  }
  if (noTools) spec.noTools = true;
  if (route) spec.route = route;
  return spec;
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
