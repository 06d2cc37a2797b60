// The one HTTP transport shared by all wire formats: POST a built request, hand back the body as
// chunks. Owns the connect and idle (stall) timeouts, the caller's abort, key scoping (SPEC P3)
// and failure classification. It never retries: the caller's retry policy does.
import type { LlmError } from "../errors.js";
import { llmError } from "../errors.js";
import type { Runtime } from "../runtime.js";
import type { BuiltRequest } from "./adapter.js";
import { classifyHttpError, classifyTransportFailure, type StopCause, scrubSecrets } from "./classify.js";

export interface TransportOptions {
  signal?: AbortSignal;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  fetch: typeof fetch;
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

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
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
  if (control.cause === "caller") return { ok: false, error: llmError("aborted", "the request was aborted") };
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
  const body = JSON.stringify(built.body);
  control.arm("connect_timeout", headWaitMs);
  try {
    for (let hop = 0; ; hop++) {
      const res = await opts.fetch(url, {
        method: "POST",
        headers: buildHeaders(runtime, built, url, opts.stream),
        body,
        signal: control.signal,
        // Redirects are followed by hand so that the key never leaves its origin.
        redirect: "manual",
      });
      if (res.status >= 300 && res.status < 400 && res.headers.get("location")) {
        await res.body?.cancel().catch(() => {});
        const next = new URL(res.headers.get("location")!, url).toString();
        if (originOf(next) !== originOf(runtime.baseUrl) || hop >= MAX_REDIRECTS) {
          control.release();
          const why =
            hop >= MAX_REDIRECTS ? "too many redirects" : `redirected to another origin (${originOf(next)})`;
          return {
            ok: false,
            error: llmError("invalid_request", scrubSecrets(`HTTP ${res.status}: ${why}`, secrets), {
              status: res.status,
            }),
          };
        }
        url = next;
        continue;
      }
      control.disarm();
      const reader = new BodyReader(res, control, timeouts, secrets);
      if (res.ok) return { ok: true, body: reader };
      const text = await reader.text(MAX_ERROR_BODY).catch(() => "");
      return { ok: false, error: classifyHttpError(res.status, res.headers, text, secrets) };
    }
  } catch (err) {
    const cause = control.cause;
    control.release();
    if (err instanceof TransportFailure) return { ok: false, error: err.error };
    return { ok: false, error: classifyTransportFailure(err, cause, "connect", timeouts, secrets) };
  }
}

/** The response body, read with the idle timeout. */
export class BodyReader {
  constructor(
    readonly response: Response,
    private readonly control: StopControl,
    private readonly timeouts: { connectTimeoutMs: number; idleTimeoutMs: number },
    private readonly secrets: readonly (string | undefined)[],
  ) {}

  get status(): number {
    return this.response.status;
  }

  get contentType(): string {
    return this.response.headers.get("content-type") ?? "";
  }

  /** Yields the body's chunks; throws TransportFailure (timeout, network, aborted). */
  async *chunks(): AsyncGenerator<Uint8Array, void, undefined> {
    const body = this.response.body;
    if (!body) {
      this.control.release();
      return;
    }
    const reader = body.getReader();
    let finished = false;
    try {
      for (;;) {
        this.control.arm("idle_timeout", this.timeouts.idleTimeoutMs);
        let step: Awaited<ReturnType<typeof reader.read>>;
        try {
          step = await reader.read();
        } catch (err) {
          throw new TransportFailure(
            classifyTransportFailure(err, this.control.cause, "body", this.timeouts, this.secrets),
          );
        }
        // Time spent by our consumer between reads is not the server's stall.
        this.control.disarm();
        if (step.done) {
          finished = true;
          return;
        }
        // A caller abort that raced a chunk wins over the chunk.
        if (this.control.cause) {
          throw new TransportFailure(
            classifyTransportFailure(undefined, this.control.cause, "body", this.timeouts, this.secrets),
          );
        }
        yield step.value;
      }
    } finally {
      this.control.release();
      if (!finished) {
        // The consumer stopped early or we failed: stop the download, free the socket.
        this.control.stop();
        await reader.cancel().catch(() => {});
      }
      reader.releaseLock();
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

/** One AbortController fed by the caller's signal and our own timers; remembers why it fired. */
class StopControl {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCallerAbort = () => this.fire("caller");
  cause: StopCause | undefined;

  constructor(private readonly callerSignal: AbortSignal | undefined) {
    if (callerSignal?.aborted) this.cause = "caller";
    else callerSignal?.addEventListener("abort", this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** (Re)starts the one timer; when it runs out the request is aborted with `cause`. */
  arm(cause: StopCause, ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(cause), ms);
  }

  disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private fire(cause: StopCause): void {
    if (this.cause) return;
    this.cause = cause;
    if (this.timer) clearTimeout(this.timer);
    this.controller.abort();
  }

  /** Abort without a cause of our own (the consumer went away). */
  stop(): void {
    if (!this.controller.signal.aborted) this.controller.abort();
  }

  /** Timers and listeners off; the request itself is left alone. */
  release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.callerSignal?.removeEventListener("abort", this.onCallerAbort);
  }
}
