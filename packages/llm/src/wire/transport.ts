// The one HTTP transport shared by all wire formats: POST a built request, hand back the body as
// chunks. Owns the connect and idle (stall) timeouts, the caller's abort, key scoping (SPEC P3)
// and failure classification. It never retries: the caller's retry policy does.
import type { LlmError } from "../errors.js";
import { llmError } from "../errors.js";
import type { Runtime } from "../runtime.js";
import type { BuiltRequest } from "./adapter.js";
import { classifyHttpError, classifyTransportFailure, type StopCause, scrubSecrets } from "./classify.js";
import { type Exchange, fetchSender, type Sender, sendHttp } from "./exchange.js";
import { bodyJson } from "./wire-json.js";

export interface TransportOptions {
  signal?: AbortSignal;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  /** Injected fetch (tests, proxies); without it node:http(s) with keep-alive is used. */
  fetch?: typeof fetch;
  /** SSE (true) or a single JSON reply. */
  stream: boolean;
}

export type OpenResult = { ok: true; body: BodyReader } | { ok: false; error: LlmError };

/** Thrown by BodyReader.chunks(); carries the classified failure. */
export class TransportFailure extends Error {
  constructor(readonly error: LlmError) {
    super(error.message);
  }
}

const MAX_REDIRECTS = 5;
const MAX_ERROR_BODY = 64 * 1024;
const AUTH_HEADERS = new Set(["authorization", "x-api-key", "api-key"]);

/** baseUrl + path, without a doubled slash. */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  return path.startsWith("/") ? base + path : `${base}/${path}`;
}

/** Origins of the URLs seen lately: a route's URL is parsed once, not three times per call. */
const origins = new Map<string, string | undefined>();
const MAX_ORIGINS = 64;

function originOf(url: string): string | undefined {
  if (origins.has(url)) return origins.get(url);
  let origin: string | undefined;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = undefined;
  }
  if (origins.size >= MAX_ORIGINS) origins.clear();
  origins.set(url, origin);
  return origin;
}

/** Request headers for `url`; the key only when `url` shares the origin of runtime.baseUrl. */
export function buildHeaders(
  runtime: Runtime,
  built: BuiltRequest,
  url: string,
  stream: boolean,
): Record<string, string> {
  const sameOrigin = originOf(url) !== undefined && originOf(url) === originOf(runtime.baseUrl);
  const headers: Record<string, string> = {};
  for (const [name, value] of [...Object.entries(runtime.headers), ...Object.entries(built.headers)]) {
    // Credentials only ever travel through the compat.auth path below.
    if (!sameOrigin && AUTH_HEADERS.has(name.toLowerCase())) continue;
    headers[name.toLowerCase()] = value;
  }
  headers["content-type"] = "application/json";
  headers.accept = stream ? "text/event-stream" : "application/json";
  if (sameOrigin && runtime.apiKey) {
    if (runtime.compat.auth === "bearer") headers.authorization = `Bearer ${runtime.apiKey}`;
    else if (runtime.compat.auth === "x-api-key") headers["x-api-key"] = runtime.apiKey;
  }
  return headers;
}

/**
 * Sends the request and waits for the response head. On 2xx returns a BodyReader; on any other
 * status reads the (bounded) error body and returns the classified error.
 */
export async function openRequest(
  runtime: Runtime,
  built: BuiltRequest,
  opts: TransportOptions,
): Promise<OpenResult> {
  const secrets = [runtime.apiKey];
  const control = new StopControl(opts.signal);
  if (control.cause === "caller") {
    control.release();
    return { ok: false, error: llmError("aborted", "the request was aborted") };
  }
  // A non-streaming reply sends its head only once the whole answer exists, so the wait for it is
  // bounded by the idle timeout too, not just by the connect timeout.
  const headWaitMs = opts.stream
    ? opts.connectTimeoutMs
    : Math.max(opts.connectTimeoutMs, opts.idleTimeoutMs);
  const timeouts = { connectTimeoutMs: headWaitMs, idleTimeoutMs: opts.idleTimeoutMs };
  let url = joinUrl(runtime.baseUrl, built.path);
  if (originOf(url) === undefined) {
    control.release();
    return {
      ok: false,
      error: llmError("invalid_request", `invalid base URL: ${scrubSecrets(url, secrets)}`),
    };
  }
  const send: Sender = opts.fetch ? fetchSender(opts.fetch) : sendHttp;
  // The first-byte timeout bounds the head and the first body byte together: a route that sends
  // its head and then nothing (a stalled stream) is as dead as one that sends no head.
  const firstByteBy = opts.stream ? Date.now() + headWaitMs : undefined;
  const body = bodyJson(built.body);
  const setStop = (stop: () => void) => control.setStop(stop);
  control.arm("connect_timeout", headWaitMs);
  try {
    // Redirects are followed by hand so that the key never leaves its origin.
    for (let hop = 0; ; hop++) {
      const reply = await send(
        { url, headers: buildHeaders(runtime, built, url, opts.stream), body },
        setStop,
      );
      const location = reply.status >= 300 && reply.status < 400 ? reply.headers.get("location") : null;
      if (location) {
        reply.cancel();
        const next = new URL(location, url).toString();
        if (originOf(next) !== originOf(runtime.baseUrl) || hop >= MAX_REDIRECTS) {
          control.release();
          const why =
            hop >= MAX_REDIRECTS ? "too many redirects" : `redirected to another origin (${originOf(next)})`;
          return {
            ok: false,
            error: llmError("invalid_request", scrubSecrets(`HTTP ${reply.status}: ${why}`, secrets), {
              status: reply.status,
            }),
          };
        }
        url = next;
        continue;
      }
      control.disarm();
      const reader = new BodyReader(reply, control, timeouts, secrets, firstByteBy);
      if (reply.status >= 200 && reply.status < 300) return { ok: true, body: reader };
      const text = await reader.text(MAX_ERROR_BODY).catch(() => "");
      return { ok: false, error: classifyHttpError(reply.status, reply.headers, text, secrets) };
    }
  } catch (err) {
    const cause = control.cause;
    control.release();
    if (err instanceof TransportFailure) return { ok: false, error: err.error };
    return { ok: false, error: classifyTransportFailure(err, cause, "connect", timeouts, secrets, url) };
  }
}

/** The response body, read with the idle timeout. */
export class BodyReader {
  constructor(
    private readonly reply: Exchange,
    private readonly control: StopControl,
    private readonly timeouts: { connectTimeoutMs: number; idleTimeoutMs: number },
    private readonly secrets: readonly (string | undefined)[],
    /** Epoch ms by which the first body byte must arrive (streams); later reads use the idle timeout. */
    private firstByteBy?: number,
  ) {}

  get status(): number {
    return this.reply.status;
  }

  get contentType(): string {
    return this.reply.headers.get("content-type") ?? "";
  }

  /** Yields the body's chunks; throws TransportFailure (timeout, network, aborted). */
  async *chunks(): AsyncGenerator<Uint8Array, void, undefined> {
    let finished = false;
    let failed = false;
    try {
      for (;;) {
        if (this.firstByteBy !== undefined)
          this.control.arm("connect_timeout", Math.max(1, this.firstByteBy - Date.now()));
        else this.control.arm("idle_timeout", this.timeouts.idleTimeoutMs);
        let chunk: Uint8Array | undefined;
        try {
          chunk = await this.reply.read();
        } catch (err) {
          failed = true;
          throw new TransportFailure(
            classifyTransportFailure(err, this.control.cause, "body", this.timeouts, this.secrets),
          );
        }
        // Time spent by our consumer between reads is not the server's stall.
        this.control.disarm();
        this.firstByteBy = undefined;
        if (chunk === undefined) {
          finished = true;
          return;
        }
        // A caller abort that raced a chunk wins over the chunk.
        if (this.control.cause) {
          failed = true;
          throw new TransportFailure(
            classifyTransportFailure(undefined, this.control.cause, "body", this.timeouts, this.secrets),
          );
        }
        yield chunk;
      }
    } finally {
      const stopped = failed || this.control.cause !== undefined;
      this.control.release();
      // We failed or were stopped: end the download, drop the connection. The consumer merely
      // had enough (the terminal event came first): the connection may still be kept.
      if (!finished) {
        if (stopped) this.reply.cancel();
        else this.reply.release();
      }
    }
  }

  /** The whole body as text, at most `limit` characters (further bytes are dropped). */
  async text(limit = Number.POSITIVE_INFINITY): Promise<string> {
    const decoder = new TextDecoder();
    const parts: string[] = [];
    let size = 0;
    for await (const chunk of this.chunks()) {
      const piece = decoder.decode(chunk, { stream: true });
      parts.push(piece);
      size += piece.length;
      if (size >= limit) break;
    }
    parts.push(decoder.decode());
    const text = parts.join("");
    return text.length > limit ? text.slice(0, limit) : text;
  }
}

/**
 * The caller's signal and our one timer, both ending in the exchange's stop hook; remembers why.
 * The timer is made once and only refreshed per chunk (no clearTimeout + setTimeout per chunk);
 * between reads it is disarmed, so a firing then is ignored.
 */
class StopControl {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerMs = 0;
  private timerCause: StopCause = "connect_timeout";
  private timing = false;
  private stopped = false;
  private stopHook: (() => void) | undefined;
  private readonly onTimer = () => {
    if (this.timing) this.fire(this.timerCause);
  };
  private readonly onCallerAbort = () => this.fire("caller");
  cause: StopCause | undefined;

  constructor(private readonly callerSignal: AbortSignal | undefined) {
    if (callerSignal?.aborted) this.cause = "caller";
    else callerSignal?.addEventListener("abort", this.onCallerAbort, { once: true });
  }

  /** What tears down the exchange in flight; run at once if we already stopped. */
  setStop(hook: () => void): void {
    this.stopHook = hook;
    if (this.stopped) hook();
  }

  /** (Re)starts the one timer; when it runs out the exchange is stopped with `cause`. */
  arm(cause: StopCause, ms: number): void {
    this.timerCause = cause;
    this.timing = true;
    if (this.timer && this.timerMs === ms) {
      this.timer.refresh();
      this.timer.ref();
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.onTimer, ms);
    this.timerMs = ms;
  }

  /** The timer stops counting (and stops holding the process open) until the next arm. */
  disarm(): void {
    this.timing = false;
    this.timer?.unref();
  }

  private fire(cause: StopCause): void {
    if (this.cause) return;
    this.cause = cause;
    this.timing = false;
    this.stop();
  }

  /** Tear the exchange down without a cause of our own (the consumer went away). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopHook?.();
  }

  /** Timer and listener off; the exchange itself is left alone. */
  release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timing = false;
    this.callerSignal?.removeEventListener("abort", this.onCallerAbort);
  }
}
