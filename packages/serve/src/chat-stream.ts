// The streamed form of POST /v1/chat/completions, exactly as clients parse it: chunks, then
// `data: [DONE]`; with include_usage every chunk carries `usage: null` and one last chunk with
// `choices: []` carries the usage. Tool progress goes out as readable text (switchable) and as the
// named events `iris.tool.progress` and `iris.turn`. Their data is a `choices: []` chunk with the
// facts in an extension field (`iris_tool_progress`, `iris_turn`): the official SDKs hand a named
// event to their caller as if it were a chunk, and the `ai` SDK ignores event names, so only a
// chunk that changes nothing (the shape Azure's prompt_filter_results chunks taught every client
// to pass over) is safe by default. Comment keep-alives flow while tools run (every SSE parser
// skips comments). A client that goes away interrupts the turn (SPEC L7).
import { type HostEvent, TurnView } from "@iris/host";
import type { Context } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import { answeredBy } from "./answered.js";
import type { ServeDeps, ServeEnv } from "./deps.js";
import { ApiError } from "./errors.js";
import {
  namedEventsOn,
  progressEvent,
  progressStyle,
  progressText,
  type ToolProgressStyle,
} from "./progress.js";
import { failIfUpstream, finishReasonOf } from "./turn-outcome.js";
import type { TurnSpec } from "./turns.js";
import { chatUsage, turnHeaders } from "./wire-usage.js";

interface Meta {
  id: string;
  created: number;
  model: string;
}

export async function streamChat(
  c: Context<ServeEnv>,
  deps: ServeDeps,
  spec: Omit<TurnSpec, "signal" | "onEvent">,
  meta: Meta,
  includeUsage: boolean,
): Promise<Response> {
  const release = await deps.limits.acquire(c.get("caller"), c.req.raw.signal);
  const controller = new AbortController();
  const style = progressStyle(c.req.header("x-iris-tool-progress"), deps.config.tool_progress);
  const named = namedEventsOn(c.req.header("x-iris-events"), deps.config.named_events, "chat");
  let writer: ChunkWriter | undefined;
  let prepared: Awaited<ReturnType<ServeDeps["runner"]["prepare"]>>;
  try {
    prepared = await deps.runner.prepare({
      ...spec,
      signal: controller.signal,
      onEvent: (e) => writer?.onEvent(e),
    });
  } catch (err) {
    release();
    throw err;
  }
  c.header("x-iris-tool-progress", style);
  c.header("x-accel-buffering", "no"); // proxies (nginx) must pass chunks on at once
  if (prepared.sessionId) c.header("x-iris-session-id", prepared.sessionId);
  return streamSSE(
    c,
    async (stream) => {
      stream.onAbort(() => controller.abort());
      writer = new ChunkWriter(stream, meta, { includeUsage, style, named, keepAliveMs: deps.keepAliveMs });
      try {
        await writer.chunk({ role: "assistant", content: "" });
        const out = await prepared.run();
        await writer.flushed();
        if (out.result.reason === "user_cancelled" || stream.aborted) return;
        try {
          failIfUpstream(out);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          await stream.writeSSE({ data: JSON.stringify(err.body()) });
          return;
        }
        // The chunks from here on name the route that answered (a named route's fallback shows).
        const answered = answeredBy(meta.model, out);
        meta.model = answered.model;
        const calls = out.clientCalls;
        if (calls.length)
          await writer.chunk({
            tool_calls: calls.map((call, index) => ({
              index,
              id: call.callId,
              type: "function",
              function: { name: call.name, arguments: call.argumentsJson },
            })),
          });
        else if (out.result.reason !== "natural") await writer.chunk({ content: out.result.text });
        // Before the finish chunk: finish, usage chunk and [DONE] stay last, in the order clients expect.
        if (named) {
          const turn = {
            ...turnHeaders(out.result.costUsd, out.result.reason, out.sessionId),
            ...answered.headers,
          };
          await writer.named("iris.turn", "iris_turn", turn);
        }
        await writer.chunk({}, finishReasonOf(out));
        // The cost rides in the usage chunk too: headers went out before it was known.
        if (includeUsage)
          await stream.writeSSE({
            data: JSON.stringify({
              ...writer.base(),
              choices: [],
              usage: { ...chatUsage(out.result.usage), cost_usd: out.result.costUsd },
            }),
          });
        await stream.writeSSE({ data: "[DONE]" });
        c.set("complete", true);
      } finally {
        writer.stop();
        await prepared.dispose();
        release();
      }
    },
    async (err, stream) => {
      await stream.writeSSE({
        data: JSON.stringify(new ApiError(500, `internal error: ${err.message}`, "server_error").body()),
      });
    },
  );
}

interface WriterOptions {
  includeUsage: boolean;
  style: ToolProgressStyle;
  named: boolean;
  keepAliveMs: number;
}

/** Serialises every write of one stream (events arrive synchronously, writes are async). */
class ChunkWriter {
  private queue: Promise<unknown> = Promise.resolve();
  private running = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly view = new TurnView();

  constructor(
    private readonly stream: SSEStreamingApi,
    private readonly meta: Meta,
    private readonly opts: WriterOptions,
  ) {}

  base() {
    return {
      id: this.meta.id,
      object: "chat.completion.chunk",
      created: this.meta.created,
      model: this.meta.model,
    };
  }

  chunk(delta: Record<string, unknown>, finish: string | null = null): Promise<unknown> {
    const body = {
      ...this.base(),
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(this.opts.includeUsage ? { usage: null } : {}),
    };
    return this.enqueue(() => this.stream.writeSSE({ data: JSON.stringify(body) }));
  }

  /** A named event: a chunk that changes nothing, carrying its facts in an extension field. */
  named(event: string, field: string, facts: object): Promise<unknown> {
    const body = {
      ...this.base(),
      choices: [],
      ...(this.opts.includeUsage ? { usage: null } : {}),
      [field]: facts,
    };
    return this.enqueue(() => this.stream.writeSSE({ event, data: JSON.stringify(body) }));
  }

  onEvent(e: HostEvent): void {
    if (this.stream.aborted) return;
    // The turn view tells this answer's text and calls from a subagent's (folded under its task).
    const change = this.view.apply(e);
    if (change?.kind === "text") void this.chunk({ content: change.delta });
    else if (change?.kind === "tool" && e.name === "tool_progress") this.toolProgress(e);
  }

  private toolProgress(e: Extract<HostEvent, { name: "tool_progress" }>): void {
    const text = this.opts.style === "details" ? progressText(e.payload) : "";
    if (text) void this.chunk({ content: text });
    if (this.opts.named) void this.named("iris.tool.progress", "iris_tool_progress", progressEvent(e));
    if (e.payload.phase === "before") {
      this.running++;
      this.keepAlive();
      this.timer ??= setInterval(() => this.keepAlive(), this.opts.keepAliveMs);
    } else if (e.payload.phase === "after" && --this.running <= 0) {
      this.running = 0;
      this.stop();
    }
  }

  private keepAlive(): void {
    void this.enqueue(() => this.stream.write(": keepalive\n\n"));
  }

  private enqueue(write: () => Promise<unknown>): Promise<unknown> {
    this.queue = this.queue.then(write).catch(() => {
      // The client went away; the abort handler interrupts the turn.
    });
    return this.queue;
  }

  flushed(): Promise<unknown> {
    return this.queue;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
