// Every way an LLM call fails, mapped to the small set of LlmError kinds (SPEC F1 acts on them).
// Pure: no I/O, no clock except the `now` passed in. Messages never carry a credential.
import { type LlmError, type LlmErrorKind, llmError } from "../errors.js";

const MAX_MESSAGE = 500;

const CONTEXT_OVERFLOW =
  /context[ _-]?length|context window|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds? the (model'?s? )?(maximum|max|context)|reduce the length of the messages|token limit/i;
const MODEL_NOT_FOUND =
  /model_not_found|no such model|unknown model|invalid model|model[^.]{0,80}(not found|does not exist|is not available|not supported)/i;
const BILLING =
  /insufficient[_ ]quota|exceeded your current quota|billing|credit balance|insufficient (credits|balance|funds)|payment required/i;

/** Replaces every secret (and any bearer token) in `text`. */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, "$1[redacted]");
}

/** Reads a response header by name (a fetch `Headers`, or our view of node:http's headers). */
export interface HeaderLookup {
  get(name: string): string | null;
}

/** Retry-After (delta seconds or HTTP date) and retry-after-ms, in milliseconds. */
export function parseRetryAfter(headers: HeaderLookup, now: number = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return Math.round(n);
  }
  const ra = headers.get("retry-after");
  if (ra === null || ra.trim() === "") return undefined;
  const seconds = Number(ra);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(ra);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

interface ProviderError {
  message?: string;
  code?: string;
}

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

function str(v: unknown): string | undefined {
  if (typeof v === "string" && v.length > 0) return v;
  if (typeof v === "number") return String(v);
  return undefined;
}

/** The provider's message and code from the usual error body shapes (OpenAI, Anthropic, others). */
export function providerErrorOf(payload: unknown): ProviderError {
  const top = asRecord(payload);
  if (!top) return typeof payload === "string" && payload ? { message: payload } : {};
  const err = asRecord(top.error);
  if (err) {
    return {
      message: str(err.message) ?? str(top.message),
      code: str(err.code) ?? str(err.type) ?? str(top.type),
    };
  }
  return {
    message: str(top.error) ?? str(top.message) ?? str(top.detail),
    code: str(top.code) ?? str(top.type),
  };
}

function providerErrorOfText(bodyText: string): ProviderError {
  const trimmed = bodyText.trim();
  if (!trimmed) return {};
  try {
    const found = providerErrorOf(JSON.parse(trimmed));
    if (found.message || found.code) return found;
  } catch {
    // Not JSON: an HTML page or plain text from a proxy; use it as is.
  }
  return { message: trimmed.replace(/\s+/g, " ") };
}

export function kindForStatus(status: number, text: string): LlmErrorKind {
  if (status === 402 || BILLING.test(text)) return "billing";
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate_limit";
  if (status === 408) return "timeout";
  if ((status === 400 || status === 413 || status === 422) && CONTEXT_OVERFLOW.test(text)) {
    return "context_overflow";
  }
  if (status === 404 || (status === 400 && MODEL_NOT_FOUND.test(text))) return "not_found";
  if (status === 413) return "context_overflow";
  if (status >= 500) return "server";
  return "invalid_request";
}

function oneLine(text: string, secrets: readonly (string | undefined)[]): string {
  const clean = scrubSecrets(text, secrets).replace(/\s+/g, " ").trim();
  return clean.length > MAX_MESSAGE ? `${clean.slice(0, MAX_MESSAGE)}…` : clean;
}

/** A non-2xx HTTP reply. */
export function classifyHttpError(
  status: number,
  headers: HeaderLookup,
  bodyText: string,
  secrets: readonly (string | undefined)[],
  now: number = Date.now(),
): LlmError {
  const found = providerErrorOfText(bodyText);
  const detail = [found.code, found.message].filter(Boolean).join(" ");
  const kind = kindForStatus(status, detail);
  const message = oneLine(`HTTP ${status}${found.message ? `: ${found.message}` : ""}`, secrets);
  const extra: Partial<LlmError> = { status };
  const retryAfterMs = parseRetryAfter(headers, now);
  if (retryAfterMs !== undefined) extra.retryAfterMs = retryAfterMs;
  if (found.code) extra.code = oneLine(found.code, secrets);
  return llmError(kind, message, extra);
}

/** An error object that arrived inside a 200 reply (a mid-stream `error` event or JSON body). */
export function classifyPayloadError(
  payload: unknown,
  secrets: readonly (string | undefined)[] = [],
): LlmError {
  const found = providerErrorOf(payload);
  const status = numericStatus(payload);
  const detail = [found.code, found.message].filter(Boolean).join(" ");
  const kind = status !== undefined ? kindForStatus(status, detail) : kindForPayload(detail);
  const message = oneLine(`provider error${found.message ? `: ${found.message}` : ""}`, secrets);
  const extra: Partial<LlmError> = {};
  if (status !== undefined) extra.status = status;
  if (found.code) extra.code = oneLine(found.code, secrets);
  return llmError(kind, message, extra);
}

function numericStatus(payload: unknown): number | undefined {
  const err = asRecord(asRecord(payload)?.error);
  const code = err?.code ?? err?.status;
  return typeof code === "number" && code >= 400 && code < 600 ? code : undefined;
}

function kindForPayload(detail: string): LlmErrorKind {
  if (CONTEXT_OVERFLOW.test(detail)) return "context_overflow";
  if (BILLING.test(detail)) return "billing";
  if (/rate[ _-]?limit/i.test(detail)) return "rate_limit";
  if (/overloaded|server[_ ]error|internal|unavailable/i.test(detail)) return "server";
  return "server";
}

/** Why the transport gave up on its own (set before it aborts the request). */
export type StopCause = "caller" | "connect_timeout" | "idle_timeout";

const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

function errorCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 4 && cur; depth++) {
    const rec = asRecord(cur);
    const code = rec?.code;
    if (typeof code === "string") return code;
    cur = rec?.cause;
  }
  return undefined;
}

/** Nothing listens at the address: the connection was refused, the host is unknown or unroutable. */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH"]);
const UNREACHABLE_WHY: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "unknown host",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/** A failure of sending the request (node:http or fetch) or of reading the body. */
export function classifyTransportFailure(
  err: unknown,
  cause: StopCause | undefined,
  phase: "connect" | "body",
  timeouts: { connectTimeoutMs: number; idleTimeoutMs: number },
  secrets: readonly (string | undefined)[],
  /** The URL being connected to, named in "nothing listens at URL". */
  url?: string,
): LlmError {
  if (cause === "caller") return llmError("aborted", "the request was aborted");
  if (cause === "connect_timeout") {
    return llmError("timeout", `no response within ${timeouts.connectTimeoutMs} ms (first-byte timeout)`);
  }
  if (cause === "idle_timeout") {
    return llmError("timeout", `the reply stalled: no bytes for ${timeouts.idleTimeoutMs} ms`);
  }
  const code = errorCode(err);
  if (phase === "connect" && code && UNREACHABLE_CODES.has(code)) {
    const where = url ? originOrUrl(url) : "the endpoint";
    return llmError(
      "unreachable",
      oneLine(`nothing listens at ${where} (${UNREACHABLE_WHY[code]}, ${code})`, secrets),
      {
        code,
      },
    );
  }
  const base = err instanceof Error ? err.message : String(err);
  const what = phase === "connect" ? "connection failed" : "connection dropped mid-reply";
  const detail = code && !NETWORK_CODES.has(code) ? `${code} ${base}` : (code ?? base);
  return llmError("network", oneLine(`${what}: ${detail}`, secrets), code ? { code } : {});
}

function originOrUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/(chat\/completions|responses|messages)$/, "")}`;
  } catch {
    return url;
  }
}
