// POST /v1/responses (SPEC E3), streaming (responses-stream.ts) and not. `previous_response_id`
// and `conversation` continue what state.db kept for this API key; the client's function calls
// come back as native function_call items and function_call_output items continue the turn.
import { randomUUID } from "node:crypto";
import type { HostEvent } from "@iris/host";
import { assistantText } from "@iris/llm";
import type { Context } from "hono";
import { answeredBy } from "./answered.js";
import type { ServeDeps, ServeEnv } from "./deps.js";
import { ApiError, badRequest } from "./errors.js";
import { clientToolSpecs, readBody } from "./request.js";
import { ResponseBuilder, type ResponseMeta } from "./response-builder.js";
import { contextItems, type ResponseItem } from "./response-items.js";
import { type ResponseRecord, ResponseStore } from "./response-store.js";
import { convertResponsesInput } from "./responses-history.js";
import { type ResponsesRequest, responsesRequest } from "./responses-schema.js";
import { streamResponse } from "./responses-stream.js";
import { StreamRecorder } from "./stream-recorder.js";
import { failIfUpstream } from "./turn-outcome.js";
import type { TurnOutcome, TurnSpec } from "./turns.js";
import { turnHeaders } from "./wire-usage.js";

export async function responses(c: Context<ServeEnv>, deps: ServeDeps): Promise<Response> {
  const req = await readBody(c, responsesRequest);
  const route = deps.models.resolve(req.model);
  const caller = c.get("caller");
  const owner = c.get("owner");
  const { spec, meta, keys, inputItems } = await prepareSpec(req, { caller, owner }, deps);
  if (req.background) backgroundAllowed(req);
  const release = await deps.limits.acquire(caller, c.req.raw.signal);
  const controller = new AbortController();
  // The stream's handler for the turn's events, once the stream has begun.
  let sink: ((e: HostEvent) => void) | undefined;
  let prepared: Awaited<ReturnType<ServeDeps["runner"]["prepare"]>>;
  try {
    prepared = await deps.runner.prepare({
      ...spec,
      ...(route ? { route } : {}),
      signal: controller.signal,
      onEvent: (e: HostEvent) => sink?.(e),
    });
  } catch (err) {
    release();
    throw err;
  }
  const keep = async (out: TurnOutcome, response: ResponseRecord["response"]) => {
    if (req.store === false) return;
    try {
      await deps.responses.put(owner, keys, out.history, { response, inputItems });
    } catch (err) {
      // A response that cannot be continued is not answered as if it could (SPEC L5's store_error).
      const why = (err as Error).message;
      deps.iris.logger.error(`serve: response ${meta.id} not stored: ${why}`);
      throw new ApiError(
        503,
        `Stopped: the response could not be stored (${why}), so nothing of it was kept and previous_response_id cannot continue it; try again`,
        "server_error",
        "store_error",
      );
    }
  };

  if (!req.stream) {
    const onAbort = () => controller.abort();
    c.req.raw.signal.addEventListener("abort", onAbort, { once: true });
    try {
      const out = await prepared.run();
      failIfUpstream(out);
      const answered = answeredBy(req.model, out);
      meta.model = answered.model;
      const builder = new ResponseBuilder(meta);
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
        await keep(out, body);
        c.set("complete", true);
      }
      return c.json(body, 200, {
        ...turnHeaders(out.result.costUsd, out.result.reason),
        ...answered.headers,
      });
    } finally {
      c.req.raw.signal.removeEventListener("abort", onAbort);
      release();
    }
  }

  let recorder: StreamRecorder | undefined;
  if (req.background)
    try {
      recorder = await StreamRecorder.open(deps.responses.streams, {
        owner,
        id: meta.id,
        ...deps.responses.bounds(),
        beatMs: deps.streamBeatMs,
        onError: (err) => deps.iris.logger.error(`serve: stream of ${meta.id} not recorded: ${err.message}`),
      });
    } catch (err) {
      await prepared.dispose();
      release();
      throw new ApiError(
        503,
        `Stopped: the background stream could not be recorded (${(err as Error).message}); try again`,
        "server_error",
        "store_error",
      );
    }
  return streamResponse(c, deps, {
    prepared,
    meta,
    controller,
    release,
    keep,
    listen: (f) => {
      sink = f;
    },
    ...(recorder ? { recorder } : {}),
  });
}

/** Background mode needs the stream (what a client resumes) and the record (what it resumes from). */
function backgroundAllowed(req: ResponsesRequest): void {
  if (!req.stream)
    throw badRequest(
      "background: Iris runs a response in the background only streamed (send stream: true; resume with GET /v1/responses/{id}?stream=true)",
      "background",
    );
  if (req.store === false)
    throw badRequest("background: a background response is stored; it cannot have store: false", "store");
}

async function prepareSpec(
  req: ResponsesRequest,
  { caller, owner }: { caller: string; owner: string },
  deps: ServeDeps,
): Promise<{
  spec: Omit<TurnSpec, "signal">;
  meta: ResponseMeta;
  keys: string[];
  inputItems: ResponseItem[];
}> {
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
  const convKey = conversation ? ResponseStore.conversationKey(conversation) : undefined;
  let before: Awaited<ReturnType<ResponseStore["get"]>>;
  if (req.previous_response_id) {
    before = await deps.responses.get(owner, req.previous_response_id);
    if (!before)
      throw new ApiError(
        404,
        `Previous response with id ${JSON.stringify(req.previous_response_id)} not found (unknown, expired, or another key's)`,
        "invalid_request_error",
        "previous_response_not_found",
        "previous_response_id",
      );
  } else if (convKey) before = await deps.responses.get(owner, convKey);
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
      ...(deps.models.toolless(req.model) || req.tool_choice === "none" ? { noTools: true } : {}),
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
    inputItems: contextItems(before?.record, req.input),
  };
}
