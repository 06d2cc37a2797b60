// POST /v1/responses (SPEC E3), streaming and not. `previous_response_id` and `conversation`
// continue what the store kept for this API key; the client's function calls come back as native
// function_call items and function_call_output items continue the turn.
import { randomUUID } from "node:crypto";
import type { HostEvent } from "@iris/host";
import { assistantText } from "@iris/llm";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { ServeDeps, ServeEnv } from "./deps.js";
import { ApiError } from "./errors.js";
import { clientToolSpecs, readBody } from "./request.js";
import { ResponseBuilder, type ResponseMeta } from "./response-builder.js";
import { ResponseStore } from "./response-store.js";
import { convertResponsesInput } from "./responses-history.js";
import { type ResponsesRequest, responsesRequest } from "./responses-schema.js";
import { failIfUpstream } from "./turn-outcome.js";
import type { TurnOutcome, TurnSpec } from "./turns.js";
import { turnHeaders } from "./wire-usage.js";

export async function responses(c: Context<ServeEnv>, deps: ServeDeps): Promise<Response> {
  const req = await readBody(c, responsesRequest);
  const route = deps.models.resolve(req.model);
  const caller = c.get("caller");
  const { spec, meta, keys } = prepareSpec(req, caller, deps);
  const release = deps.limits.acquire(caller);
  const controller = new AbortController();
  let builder: ResponseBuilder | undefined;
  let prepared: ReturnType<ServeDeps["runner"]["prepare"]>;
  try {
    prepared = deps.runner.prepare({
      ...spec,
      ...(route ? { route } : {}),
      signal: controller.signal,
      onEvent: (e: HostEvent) => {
        if (e.name === "stream_delta" && e.parentTaskId === undefined) builder?.text(e.payload.text);
      },
    });
  } catch (err) {
    release();
    throw err;
  }
  const keep = (out: TurnOutcome) => {
    if (req.store === false) return;
    for (const key of keys) deps.responses.put(caller, key, out.history);
  };

  if (!req.stream) {
    const onAbort = () => controller.abort();
    c.req.raw.signal.addEventListener("abort", onAbort, { once: true });
    try {
      const out = await prepared.run();
      failIfUpstream(out);
      builder = new ResponseBuilder(meta);
      const { result } = out;
      builder.text(
        result.reason === "client_tool_calls"
          ? result.message
            ? assistantText(result.message)
            : ""
          : result.text,
      );
      const body = builder.finish(out.clientCalls, out.result.usage);
      if (out.result.reason !== "user_cancelled") {
        keep(out);
        c.set("complete", true);
      }
      return c.json(body, 200, turnHeaders(out.result.costUsd, out.result.reason));
    } finally {
      c.req.raw.signal.removeEventListener("abort", onAbort);
      release();
    }
  }

  c.header("x-accel-buffering", "no");
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => controller.abort());
    let queue: Promise<unknown> = Promise.resolve();
    const write = (event: { type: string }) => {
      queue = queue
        .then(() => stream.writeSSE({ event: event.type, data: JSON.stringify(event) }))
        .catch(() => {});
    };
    builder = new ResponseBuilder(meta, write);
    let timer: NodeJS.Timeout | undefined;
    try {
      builder.start();
      // Comment keep-alives while the turn runs (tools may take long; proxies close idle streams).
      timer = setInterval(() => {
        queue = queue.then(() => stream.write(": keepalive\n\n")).catch(() => {});
      }, deps.keepAliveMs);
      const out = await prepared.run();
      if (out.result.reason === "user_cancelled" || stream.aborted) return;
      try {
        failIfUpstream(out);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        builder.fail(err.code ?? "upstream_failed", err.message);
        await queue;
        return;
      }
      if (out.result.reason !== "natural" && out.result.reason !== "client_tool_calls")
        builder.text(out.result.text);
      builder.finish(out.clientCalls, out.result.usage);
      await queue;
      keep(out);
      c.set("complete", true);
    } finally {
      if (timer) clearInterval(timer);
      await prepared.dispose();
      release();
    }
  });
}

function prepareSpec(
  req: ResponsesRequest,
  caller: string,
  deps: ServeDeps,
): { spec: Omit<TurnSpec, "signal">; meta: ResponseMeta; keys: string[] } {
  const conversation =
    typeof req.conversation === "string" ? req.conversation : (req.conversation?.id ?? null);
  if (conversation && req.previous_response_id)
    throw new ApiError(
      400,
      "give previous_response_id or conversation, not both",
      "invalid_request_error",
      "invalid_request",
      "conversation",
    );
  const id = `resp_${randomUUID().replace(/-/g, "")}`;
  const convKey = conversation ? ResponseStore.conversationKey(caller, conversation) : undefined;
  let before: ReturnType<ResponseStore["get"]>;
  if (req.previous_response_id) {
    before = deps.responses.get(caller, req.previous_response_id);
    if (!before)
      throw new ApiError(
        404,
        `Previous response with id ${JSON.stringify(req.previous_response_id)} not found (unknown, expired, or another key's)`,
        "invalid_request_error",
        "previous_response_not_found",
        "previous_response_id",
      );
  } else if (convKey) before = deps.responses.get(caller, convKey);
  const { instructions, history, input } = convertResponsesInput(before?.history ?? [], req.input);
  const clientTools = clientToolSpecs(
    (req.tools ?? []).map((t) => ({
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      ...(t.parameters ? { parameters: t.parameters } : {}),
    })),
    deps.ownToolNames,
    (i) => `tools[${i}].name`,
  );
  const allInstructions = [req.instructions ?? "", instructions].filter(Boolean).join("\n\n");
  return {
    spec: {
      caller,
      conversation: { kind: "memory", history, instructions: allInstructions },
      input,
      clientTools,
    },
    meta: {
      id,
      model: req.model,
      createdAt: Math.floor(Date.now() / 1000),
      previousResponseId: req.previous_response_id ?? null,
      instructions: req.instructions ?? null,
      conversation,
    },
    keys: convKey ? [id, convKey] : [id],
  };
}
