// Chat Completions SSE chunks → normalised stream events. Pure: no I/O, no clock.
// Text is kept as arrays of deltas and joined once per block, so a long stream reduces in linear time.
import { randomUUID } from "node:crypto";
import { llmError } from "../../errors.js";
import type { StreamEvent } from "../../events.js";
import type { AssistantMessage, AssistantPart, Origin, StopReason, ToolCallPart } from "../../types.js";
import type { SseEvent, StreamReducer } from "../adapter.js";
import { classifyPayloadError } from "../classify.js";
import { mapFinishReason } from "./finish-reason.js";
import { plainChunk } from "./plain-chunk.js";
import { attachDetails, ReasoningDetails } from "./reasoning-details.js";
import { chunkSchema, type WireChunk, type WireUsage } from "./schema.js";
import { mapUsage } from "./usage.js";

interface OpenBlock {
  kind: "text" | "reasoning";
  index: number;
  pieces: string[];
}

interface OpenCall {
  /** Part index; -1 until the call has a name and its start event went out. */
  index: number;
  providerId?: string;
  /** Set at start: the provider id, or one we made up when the provider sent none. */
  callId?: string;
  name?: string;
  args: string[];
  /** Argument deltas that arrived before the name. */
  early: string[];
}

type ToolCallDelta = NonNullable<
  NonNullable<NonNullable<NonNullable<WireChunk["choices"]>[number]["delta"]>["tool_calls"]>
>[number];

export class ChatCompletionsReducer implements StreamReducer {
  private started = false;
  private terminated = false;
  private readonly parts: (AssistantPart | undefined)[] = [];
  private block: OpenBlock | undefined;
  /** Wire index → call being streamed. */
  private readonly calls = new Map<number, OpenCall>();
  private readonly callList: OpenCall[] = [];
  private readonly refusal: string[] = [];
  private finishReason: string | undefined;
  private sawFinish = false;
  private sawChoice = false;
  private sawEvent = false;
  private usage: WireUsage | undefined;
  private responseId: string | undefined;
  private readonly details = new ReasoningDetails();

  constructor(private readonly origin: Origin) {}

  push(event: SseEvent): StreamEvent[] {
    if (this.terminated) return [];
    const out: StreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      out.push({ type: "start" });
    }
    this.sawEvent = true;
    const data = event.data.trim();
    if (data === "[DONE]") return this.finish(out, true);
    if (data === "") return out;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return this.fail(out, `malformed JSON in stream chunk: ${data.slice(0, 80)}`);
    }
    let chunk = plainChunk(json);
    if (!chunk) {
      const parsed = chunkSchema.safeParse(json);
      if (!parsed.success)
        return this.fail(out, `unexpected chunk shape: ${parsed.error.issues[0]?.message}`);
      chunk = parsed.data;
    }
    if (chunk.error !== undefined && chunk.error !== null) {
      this.terminated = true;
      out.push({ type: "error", error: classifyPayloadError(json) });
      return out;
    }
    if (chunk.id && !this.responseId) this.responseId = chunk.id;
    if (chunk.usage) this.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue; // we ask for one choice
      this.sawChoice = true;
      const delta = choice.delta;
      if (delta) {
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (reasoning) this.appendBlock("reasoning", reasoning, out);
        if (delta.reasoning_details) this.details.add(delta.reasoning_details);
        if (delta.content) this.appendBlock("text", delta.content, out);
        if (delta.refusal) this.refusal.push(delta.refusal);
        delta.tool_calls?.forEach((tc, pos) => {
          this.appendToolCall(tc, pos, out);
        });
      }
      if (choice.finish_reason && !this.sawFinish) {
        this.sawFinish = true;
        this.finishReason = choice.finish_reason;
        this.closeAll(out);
      }
    }
    return out;
  }

  end(): StreamEvent[] {
    if (this.terminated) return [];
    return this.finish([], false);
  }

  private appendBlock(kind: OpenBlock["kind"], delta: string, out: StreamEvent[]): void {
    if (this.block?.kind !== kind) {
      this.closeBlock(out);
      this.block = { kind, index: this.parts.length, pieces: [] };
      this.parts.push(undefined);
      out.push({ type: kind === "text" ? "text_start" : "reasoning_start", index: this.block.index });
    }
    this.block.pieces.push(delta);
    out.push({ type: kind === "text" ? "text_delta" : "reasoning_delta", index: this.block.index, delta });
  }

  private closeBlock(out: StreamEvent[]): void {
    const block = this.block;
    if (!block) return;
    this.block = undefined;
    const text = block.pieces.join("");
    if (block.kind === "text") {
      this.parts[block.index] = { type: "text", text };
      out.push({ type: "text_end", index: block.index, text });
    } else {
      this.parts[block.index] = { type: "reasoning", text };
      out.push({ type: "reasoning_end", index: block.index, text });
    }
  }

  private appendToolCall(tc: ToolCallDelta, pos: number, out: StreamEvent[]): void {
    const wireIndex = tc.index ?? pos;
    let call = this.calls.get(wireIndex);
    // Some routes reuse index 0 for every parallel call; a new id means a new call.
    if (call?.providerId && tc.id && tc.id !== call.providerId && tc.function?.name) call = undefined;
    if (!call) {
      call = { index: -1, args: [], early: [] };
      this.calls.set(wireIndex, call);
      this.callList.push(call);
    }
    if (tc.id && !call.providerId) call.providerId = tc.id;
    if (tc.function?.name && !call.name) call.name = tc.function.name;
    const args = tc.function?.arguments;
    if (call.index === -1 && call.name) {
      this.closeBlock(out);
      call.index = this.parts.length;
      this.parts.push(undefined);
      // Made-up ids must stay unique across the whole history, not just this reply.
      call.callId = call.providerId ?? `call_iris_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
      out.push({ type: "toolcall_start", index: call.index, callId: call.callId, name: call.name });
      for (const early of call.early) {
        call.args.push(early);
        out.push({ type: "toolcall_delta", index: call.index, delta: early });
      }
      call.early = [];
    }
    if (!args) return;
    if (call.index === -1) {
      call.early.push(args);
      return;
    }
    call.args.push(args);
    out.push({ type: "toolcall_delta", index: call.index, delta: args });
  }

  private closeAll(out: StreamEvent[]): void {
    this.closeBlock(out);
    for (const call of this.callList) {
      if (call.index === -1) continue; // never got a name: nothing callable
      if (this.parts[call.index]) continue;
      const part: ToolCallPart = {
        type: "toolCall",
        callId: call.callId ?? `call_iris_${call.index}`,
        name: call.name ?? "",
        argumentsJson: call.args.join(""),
      };
      if (call.providerId) part.providerIds = { callId: call.providerId };
      this.parts[call.index] = part;
      out.push({ type: "toolcall_end", index: call.index, call: part });
    }
  }

  private fail(out: StreamEvent[], message: string): StreamEvent[] {
    this.terminated = true;
    out.push({ type: "error", error: llmError("invalid_response", message) });
    return out;
  }

  private finish(out: StreamEvent[], sawDone: boolean): StreamEvent[] {
    this.terminated = true;
    if (!this.sawChoice) {
      const why = this.sawEvent ? "the reply had no choices" : "the reply was empty";
      out.push({ type: "error", error: llmError("invalid_response", why) });
      return out;
    }
    if (!this.sawFinish && !sawDone) {
      out.push({ type: "error", error: llmError("network", "the stream ended before the reply finished") });
      return out;
    }
    this.closeAll(out);
    out.push({ type: "done", message: this.message() });
    return out;
  }

  private message(): AssistantMessage {
    const parts = attachDetails(
      this.parts.filter((p): p is AssistantPart => p !== undefined),
      this.details.list(),
    );
    let stopReason: StopReason = mapFinishReason(this.finishReason);
    const refusal = this.refusal.join("");
    if (refusal) stopReason = "refusal";
    else if (stopReason === "end" && parts.some((p) => p.type === "toolCall")) stopReason = "tool_calls";
    const message: AssistantMessage = {
      role: "assistant",
      parts,
      origin: this.origin,
      usage: mapUsage(this.usage),
      stopReason,
    };
    if (this.responseId) message.responseId = this.responseId;
    if (refusal) message.refusal = refusal;
    return message;
  }
}
