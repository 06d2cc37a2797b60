/** Normalises a ScriptedReply into what every renderer needs: chunks, ids, stop reason, usage. */
import type { BlobSigner } from "./strict/signing.js";
import type { ScriptedReply } from "./types.js";

export interface ResolvedUsage {
  /** Whole prompt, cached parts included. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

export interface ResolvedToolCall {
  name: string;
  /** Argument text exactly as it goes on the wire. */
  argumentsText: string;
  /** Caller-chosen id, or undefined (each renderer mints its own prefix). */
  id: string | undefined;
}

export interface ResolvedReply {
  text: string;
  reasoning: string;
  refusal: string;
  toolCalls: ResolvedToolCall[];
  stopReason: "end" | "tool_calls" | "max_tokens" | "refusal";
  usage: ResolvedUsage;
  chunkSize: number;
  id: string | undefined;
}

const estimateTokens = (chars: number): number => Math.ceil(chars / 4);

/** What the server measured of the request: its tokens and the cached part of them. */
export interface Measured {
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

export function resolveReply(reply: ScriptedReply, measured: Measured): ResolvedReply {
  const toolCalls = (reply.toolCalls ?? []).map((c) => ({
    name: c.name,
    argumentsText: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
    id: c.id,
  }));
  const text = reply.text ?? "";
  const reasoning = reply.reasoning ?? "";
  const refusal = reply.refusal ?? "";
  const u = reply.usage ?? {};
  const cacheRead = u.cacheRead ?? (u.input === undefined ? measured.cacheRead : 0);
  const cacheWrite = u.cacheWrite ?? (u.input === undefined ? measured.cacheWrite : 0);
  const reasoningTokens = u.reasoning ?? estimateTokens(reasoning.length);
  const visibleChars =
    text.length + refusal.length + toolCalls.reduce((n, c) => n + c.argumentsText.length, 0);
  const usage: ResolvedUsage = {
    input: u.input ?? Math.max(measured.input, cacheRead + cacheWrite + 1),
    output: u.output ?? Math.max(1, estimateTokens(visibleChars)) + reasoningTokens,
    cacheRead,
    cacheWrite,
    reasoning: reasoningTokens,
  };
  const chunkSize = reply.chunkSize !== undefined && reply.chunkSize > 0 ? Math.floor(reply.chunkSize) : 8;
  return {
    text,
    reasoning,
    refusal,
    toolCalls,
    stopReason:
      reply.stopReason ?? (toolCalls.length > 0 ? "tool_calls" : refusal !== "" ? "refusal" : "end"),
    usage,
    chunkSize,
    id: reply.id,
  };
}

/** Splits text into deltas of `size` characters (code points, so no surrogate is cut in half). */
export function chunk(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

/** Deterministic per-server ids: prefix + zero-padded counter. */
export class IdMint {
  private n = 0;
  /** Every tool call id handed out, so a later request may answer it via previous_response_id. */
  readonly callIds = new Set<string>();
  next(prefix: string): string {
    this.n += 1;
    const id = `${prefix}${String(this.n).padStart(6, "0")}`;
    if (prefix === "call_") this.callIds.add(id);
    return id;
  }
}

export interface RenderContext {
  ids: IdMint;
  /** Signs encrypted_content and thinking signatures with this server instance's secret. */
  signer: BlobSigner;
  /** The request asked for reasoning back (Responses include, Anthropic thinking enabled). */
  reasoningAsked: boolean;
  /** Chat Completions: the field reasoning text travels in (OpenRouter says `reasoning`). */
  reasoningField?: "reasoning_content" | "reasoning";
  /** Chat Completions: reasoning also as OpenRouter's signed `reasoning_details`. */
  reasoningDetails?: boolean;
  model: string;
  /** Unix seconds. */
  created: number;
}
