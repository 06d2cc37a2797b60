// Secret redaction for everything that leaves the process as text: log lines and error messages.
// Two layers: values registered as secrets (every resolved API key, every .env value) are
// replaced wherever they appear, and anything shaped like a credential is replaced even when
// nobody registered it (bearer tokens, sk-… keys, Authorization / x-api-key values).

export const REDACTED = "[REDACTED]";

/** Shorter values are not registered: redacting them would mangle ordinary words. */
const MIN_SECRET_LENGTH = 8;

const secrets = new Set<string>();
/** Longest first, so a secret that contains another is replaced whole. Rebuilt lazily. */
let sortedSecrets: string[] | null = null;

/** Remembers `value` as a secret: it is replaced by [REDACTED] in every later log line and error. */
export function registerSecret(value: string | undefined | null): void {
  if (typeof value !== "string") return;
  const v = value.trim();
  if (v.length < MIN_SECRET_LENGTH || secrets.has(v)) return;
  secrets.add(v);
  sortedSecrets = null;
}

export function registerSecrets(values: Iterable<string | undefined | null>): void {
  for (const v of values) registerSecret(v);
}

/** Every registered secret value (the terminal keeps them out of child processes' environments). */
export function registeredSecrets(): readonly string[] {
  sortedSecrets ??= [...secrets].sort((a, b) => b.length - a.length);
  return sortedSecrets;
}

/** For tests: forget every registered secret. */
export function clearSecrets(): void {
  secrets.clear();
  sortedSecrets = null;
}

// Credential shapes. Each keeps the label and replaces only the value.
const PATTERNS: [RegExp, string | ((...m: string[]) => string)][] = [
  // Authorization / Proxy-Authorization headers, with or without a scheme word.
  [
    /((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?:(bearer|basic|token)\s+)?[^\s"',;}]+/gi,
    (_m, label = "", scheme) => `${label}${scheme ? `${scheme} ` : ""}${REDACTED}`,
  ],
  // Key-carrying header or field names: x-api-key: …, "api_key": "…", apiKey=…
  [
    /((?:x-api-key|x-goog-api-key|api[-_]?key|access[-_]?token|refresh[-_]?token|client[-_]?secret|password)["']?\s*[:=]\s*["']?)[^\s"',;}]+/gi,
    `$1${REDACTED}`,
  ],
  [/\bbearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, `Bearer ${REDACTED}`],
  // Vendor key formats: OpenAI/Anthropic/OpenRouter/DeepSeek sk-…, Google AIza…, Groq gsk_…,
  // xAI xai-…, NVIDIA nvapi-…, AWS access key ids, GitHub tokens.
  [/\bsk-[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, REDACTED],
  [/\bgsk_[A-Za-z0-9]{16,}/g, REDACTED],
  [/\bxai-[A-Za-z0-9]{16,}/g, REDACTED],
  [/\bnvapi-[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, REDACTED],
];

/** Field names whose value is a credential whatever it looks like. */
const SECRET_KEY_NAME =
  /^(?:authorization|proxy-authorization|x-api-key|x-goog-api-key|api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|client[-_]?secret|password|secret)$/i;

/** Replaces every registered secret and every credential-shaped substring of `text`. */
export function redact(text: string): string {
  let out = text;
  if (secrets.size > 0) {
    sortedSecrets ??= [...secrets].sort((a, b) => b.length - a.length);
    for (const s of sortedSecrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  }
  for (const [re, replacement] of PATTERNS) {
    // Two calls, not one union type, so TypeScript picks the right `replace` overload.
    out = typeof replacement === "string" ? out.replace(re, replacement) : out.replace(re, replacement);
  }
  return out;
}

const MAX_DEPTH = 8;

/**
 * A copy of `value` safe to serialise: strings redacted, credential-named fields blanked,
 * Errors turned into plain objects (name, message, stack, cause, own fields), cycles cut.
 */
export function redactValue(value: unknown): unknown {
  return walk(value, 0, new WeakSet());
}

function walk(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") {
    return typeof value === "function" || typeof value === "symbol" ? String(value) : value;
  }
  if (seen.has(value)) return "[Circular]";
  if (depth >= MAX_DEPTH) return "[Truncated]";
  seen.add(value);
  try {
    if (value instanceof Error) return walkError(value, depth, seen);
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1, seen));
    if (value instanceof Date) return value.toISOString();
    if (value instanceof Map) return walk(Object.fromEntries(value), depth, seen);
    if (value instanceof Set) return walk([...value], depth, seen);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEY_NAME.test(k) && v != null && v !== "" ? REDACTED : walk(v, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function walkError(err: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: redact(err.message) };
  if (err.stack) out.stack = redact(err.stack);
  if (err.cause !== undefined) out.cause = walk(err.cause, depth + 1, seen);
  for (const [k, v] of Object.entries(err)) {
    if (k in out) continue;
    out[k] = SECRET_KEY_NAME.test(k) && v != null && v !== "" ? REDACTED : walk(v, depth + 1, seen);
  }
  return out;
}
