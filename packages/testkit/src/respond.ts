/** Writes one scripted Step to an HTTP response in the wire format of the request's api mode. */
import type { ServerResponse } from "node:http";
import { renderAnthropicJson, renderAnthropicStream } from "./render/anthropic.js";
import { renderChatJson, renderChatStream } from "./render/chat.js";
import { errorBody } from "./render/errors.js";
import { renderResponsesJson, renderResponsesStream } from "./render/responses.js";
import { type Measured, type RenderContext, resolveReply } from "./reply.js";
import { formatSse, SSE_HEADERS, type SseEvent } from "./sse.js";
import type { ApiMode, Fault, RecordedRequest, ScriptedReply } from "./types.js";

export interface RequestFacts {
  mode: ApiMode;
  stream: boolean;
  includeUsage: boolean;
}

export function requestFacts(req: RecordedRequest): RequestFacts {
  const body = (typeof req.body === "object" && req.body !== null ? req.body : {}) as Record<string, unknown>;
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  return {
    mode: req.apiMode,
    stream: body.stream === true,
    includeUsage: options?.include_usage === true,
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function renderStream(
  reply: ScriptedReply,
  facts: RequestFacts,
  ctx: RenderContext,
  measured: Measured,
): SseEvent[] {
  const r = resolveReply(reply, measured);
  if (facts.mode === "responses") return renderResponsesStream(r, ctx);
  if (facts.mode === "anthropic_messages") return renderAnthropicStream(r, ctx);
  return renderChatStream(r, ctx, facts.includeUsage);
}

function renderJson(
  reply: ScriptedReply,
  facts: RequestFacts,
  ctx: RenderContext,
  measured: Measured,
): unknown {
  const r = resolveReply(reply, measured);
  if (facts.mode === "responses") return renderResponsesJson(r, ctx);
  if (facts.mode === "anthropic_messages") return renderAnthropicJson(r, ctx);
  return renderChatJson(r, ctx);
}

export function sendReply(
  res: ServerResponse,
  reply: ScriptedReply,
  facts: RequestFacts,
  ctx: RenderContext,
  measured: Measured,
): void {
  if (!facts.stream) {
    sendJson(res, 200, renderJson(reply, facts, ctx, measured));
    return;
  }
  res.writeHead(200, SSE_HEADERS);
  for (const e of renderStream(reply, facts, ctx, measured)) res.write(formatSse(e));
  res.end();
}

/** Destroys the socket once everything written so far has been handed to the kernel. */
function writeThenDestroy(res: ServerResponse, text: string): void {
  res.write(text, () => res.socket?.destroy());
}

const MALFORMED_EVENT: Record<ApiMode, string | undefined> = {
  chat_completions: undefined,
  responses: "response.output_text.delta",
  anthropic_messages: "content_block_delta",
  models: undefined,
  unknown: undefined,
};

/** A stall leaves the response open; the server ends it on close(). */
export function sendFault(
  res: ServerResponse,
  fault: Fault,
  facts: RequestFacts,
  ctx: RenderContext,
  measured: Measured,
): void {
  switch (fault.fault) {
    case "status": {
      const headers: Record<string, string> = { ...fault.headers };
      if (fault.retryAfter !== undefined) headers["retry-after"] = fault.retryAfter;
      const body =
        fault.body ?? errorBody(facts.mode, fault.status, `fake-llm: scripted HTTP ${fault.status}`);
      const text = typeof body === "string" ? body : JSON.stringify(body);
      res.writeHead(fault.status, { "content-type": "application/json", ...headers });
      res.end(text);
      return;
    }
    case "stall":
      res.writeHead(200, facts.stream ? SSE_HEADERS : { "content-type": "application/json" });
      res.flushHeaders();
      if (facts.stream && fault.reply && fault.afterEvents)
        res.write(
          renderStream(fault.reply, facts, ctx, measured).slice(0, fault.afterEvents).map(formatSse).join(""),
        );
      return;
    case "drop": {
      if (!facts.stream) {
        const text = JSON.stringify(renderJson(fault.reply, facts, ctx, measured));
        res.writeHead(200, { "content-type": "application/json" });
        writeThenDestroy(res, text.slice(0, Math.floor(text.length / 2)));
        return;
      }
      const events = renderStream(fault.reply, facts, ctx, measured).slice(0, Math.max(0, fault.afterEvents));
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
      writeThenDestroy(res, events.map(formatSse).join(""));
      return;
    }
    case "malformed": {
      if (!facts.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"id": "fake-malformed", "choices": [');
        return;
      }
      const first = renderStream({ text: "malformed" }, facts, ctx, measured)[0];
      res.writeHead(200, SSE_HEADERS);
      if (first !== undefined) res.write(formatSse(first));
      res.write(formatSse({ event: MALFORMED_EVENT[facts.mode], data: '{"type": not json' }));
      res.end();
      return;
    }
    case "raw":
      res.writeHead(fault.status ?? 200, fault.headers ?? {});
      res.end(fault.body);
      return;
  }
}
