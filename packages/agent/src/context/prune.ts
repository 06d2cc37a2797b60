// Phase 1 (SPEC C3): shrink old tool traffic without any model call. Only messages before the
// protected tail change; message count and order stay, so call/result pairing is untouched.
import { createHash } from "node:crypto";
import {
  type AssistantMessage,
  JsonDepthError,
  type Message,
  parseBoundedJson,
  type ToolCallPart,
  type ToolResultMessage,
  textOf,
} from "@iris/llm";

export interface PruneOptions {
  /** Tool outputs at least this long (characters) become a one-line summary. */
  minOutputChars?: number;
  /** Identical outputs at least this long are deduplicated. */
  minDuplicateChars?: number;
  /** Tool-call arguments longer than this (characters of JSON) get their strings shortened. */
  maxArgumentsChars?: number;
  /** A shortened string value keeps this many characters. */
  keepStringChars?: number;
}

export interface PruneResult {
  messages: Message[];
  deduplicated: number;
  summarised: number;
  argumentsTruncated: number;
  /** Images before the tail replaced by a text stub (the first thing pruned: each costs ~1.6k tokens). */
  imagesPruned: number;
}

const DEFAULTS: Required<PruneOptions> = {
  minOutputChars: 400,
  minDuplicateChars: 200,
  maxArgumentsChars: 500,
  keepStringChars: 160,
};

/** Argument keys that best say what a call did, in order of preference. */
const TELLING_KEYS = ["command", "cmd", "path", "file_path", "file", "url", "query", "pattern", "name", "id"];

export function pruneToolOutputs(
  messages: readonly Message[],
  tailStart: number,
  options: PruneOptions = {},
): PruneResult {
  const o = { ...DEFAULTS, ...options };
  const calls = callsById(messages);
  const out = [...messages];
  let deduplicated = 0;
  let summarised = 0;
  let argumentsTruncated = 0;
  let imagesPruned = 0;
  const stubbed = new Set<Message>();
  // Old images go first, from user messages and tool results alike, each with a stub that says
  // what was there; the tail keeps its images.
  for (let i = 0; i < tailStart && i < out.length; i++) {
    const m = out[i] as Message;
    if (m.role === "assistant" || typeof m.content === "string" || !m.content.some((p) => p.type === "image"))
      continue;
    const content = m.content.map((p) =>
      p.type === "image"
        ? {
            type: "text" as const,
            text: `[image pruned: ${p.mediaType}, ${formatSize(Math.floor(((p.data ?? "").length * 3) / 4))}]`,
          }
        : p,
    );
    imagesPruned += m.content.length - m.content.filter((p) => p.type !== "image").length;
    out[i] = { ...m, content };
    stubbed.add(out[i] as Message);
  }
  // Newest copy of each output wins: the tail is never modified, so the copy kept whole must be
  // the later one and the older copies point to it.
  const newestByHash = new Map<string, ToolResultMessage>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "tool") continue;
    const text = textOf(m.content);
    if (text.length < o.minDuplicateChars) continue;
    const hash = createHash("sha256").update(text).digest("hex");
    const newer = newestByHash.get(hash);
    if (!newer) {
      newestByHash.set(hash, m);
      continue;
    }
    if (i >= tailStart) continue;
    out[i] = {
      ...m,
      content: `[duplicate tool output: same as the later result of ${newer.toolName} call ${newer.callId}]`,
    };
    deduplicated++;
  }
  for (let i = 0; i < tailStart && i < out.length; i++) {
    const m = out[i] as Message;
    const untouched = m === messages[i] || stubbed.has(m);
    if (m.role === "tool" && untouched && textOf(m.content).length >= o.minOutputChars) {
      out[i] = { ...m, content: oneLineSummary(m, calls.get(m.callId)) };
      summarised++;
    } else if (m.role === "assistant") {
      const shortened = shortenCallArguments(m, o.maxArgumentsChars, o.keepStringChars);
      if (shortened) {
        out[i] = shortened;
        argumentsTruncated++;
      }
    }
  }
  return { messages: out, deduplicated, summarised, argumentsTruncated, imagesPruned };
}

function callsById(messages: readonly Message[]): Map<string, ToolCallPart> {
  const map = new Map<string, ToolCallPart>();
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const p of m.parts) if (p.type === "toolCall") map.set(p.callId, p);
  }
  return map;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `[tool output pruned: 48 KB from terminal "npm test", exit 1]`, from what the output shows. */
export function oneLineSummary(result: ToolResultMessage, call: ToolCallPart | undefined): string {
  const text = textOf(result.content);
  const images =
    typeof result.content === "string" ? 0 : result.content.filter((p) => p.type === "image").length;
  const size = formatSize(Buffer.byteLength(text, "utf8"));
  const subject = call ? describeArguments(call.argumentsJson) : undefined;
  const facts: string[] = [];
  const exit = exitCodeOf(text);
  if (exit !== undefined) facts.push(`exit ${exit}`);
  else if (result.isError) facts.push("error");
  facts.push(`${text.split("\n").length} lines`);
  if (images > 0) facts.push(`${images} image${images > 1 ? "s" : ""}`);
  const from = subject ? `${result.toolName} ${JSON.stringify(subject)}` : result.toolName;
  return `[tool output pruned: ${size} from ${from}, ${facts.join(", ")}]`;
}

function exitCodeOf(text: string): number | undefined {
  const match =
    /"exit_?code"\s*:\s*(-?\d+)/i.exec(text) ??
    /\bexit(?:ed)?(?: with)?(?: code| status)?[:= ]\s*(-?\d+)/i.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function describeArguments(argumentsJson: string): string | undefined {
  let args: unknown;
  try {
    args = parseBoundedJson(argumentsJson);
  } catch {
    return undefined; // not JSON, or nested too deep to walk (E4): the stub names the tool only
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  const record = args as Record<string, unknown>;
  const key =
    TELLING_KEYS.find((k) => typeof record[k] === "string") ??
    Object.keys(record).find((k) => typeof record[k] === "string");
  const value = key === undefined ? undefined : (record[key] as string);
  if (!value) return undefined;
  const oneLine = value.replace(/\s+/g, " ").trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 57)}...` : oneLine;
}

/** Shortens long string values inside the arguments so the JSON text stays valid. */
function shortenCallArguments(
  m: AssistantMessage,
  maxChars: number,
  keepChars: number,
): AssistantMessage | null {
  let changed = false;
  const parts = m.parts.map((p) => {
    if (p.type !== "toolCall" || p.argumentsJson.length <= maxChars) return p;
    let args: unknown;
    try {
      // Bounded (E4): shortenStrings and JSON.stringify recurse, a 20,000-deep value overflows them.
      args = parseBoundedJson(p.argumentsJson);
    } catch (e) {
      if (!(e instanceof JsonDepthError)) return p; // not JSON: send-time sanitation owns it
      // Refused when it was called, so nothing ran with it: a stub keeps the call's shape.
      changed = true;
      const pruned = `arguments nested too deep, ${p.argumentsJson.length} characters`;
      return { ...p, argumentsJson: JSON.stringify({ pruned }) };
    }
    const argumentsJson = JSON.stringify(shortenStrings(args, keepChars));
    if (argumentsJson.length >= p.argumentsJson.length) return p;
    changed = true;
    return { ...p, argumentsJson };
  });
  return changed ? { ...m, parts } : null;
}

function shortenStrings(value: unknown, keep: number): unknown {
  if (typeof value === "string") {
    if (value.length <= keep + 40) return value;
    // Cut on a code point boundary so no lone surrogate is left (U7).
    const head = Array.from(value.slice(0, keep + 1))
      .slice(0, -1)
      .join("");
    return `${head}…[${value.length - head.length} chars truncated]`;
  }
  if (Array.isArray(value)) return value.map((v) => shortenStrings(v, keep));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortenStrings(v, keep)]));
  }
  return value;
}
