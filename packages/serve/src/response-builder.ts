// A Responses API response and its event sequence (SPEC E3), in the order the official SDK's
// accumulator requires: response.created → response.in_progress → output_item.added →
// content_part.added → output_text.delta* → output_text.done → content_part.done →
// output_item.done → (function_call items) → response.completed, with a rising sequence_number.
import { randomUUID } from "node:crypto";
import type { ToolCallPart, Usage } from "@iris/llm";
import { responsesUsage } from "./wire-usage.js";

export interface ResponseMeta {
  id: string;
  model: string;
  createdAt: number;
  previousResponseId: string | null;
  instructions: string | null;
  conversation: string | null;
}

type Item = Record<string, unknown> & { id: string; type: string };
export type ResponseEvent = Record<string, unknown> & { type: string; sequence_number: number };

export class ResponseBuilder {
  private seq = 0;
  private readonly output: Item[] = [];
  private message: { item: Item; index: number; text: string } | undefined;

  constructor(
    private readonly meta: ResponseMeta,
    private readonly emit: (event: ResponseEvent) => void = () => {},
  ) {}

  start(): void {
    this.event("response.created", { response: this.snapshot("in_progress") });
    this.event("response.in_progress", { response: this.snapshot("in_progress") });
  }

  text(delta: string): void {
    if (!delta) return;
    const m = this.message ?? this.openMessage();
    m.text += delta;
    this.event("response.output_text.delta", {
      item_id: m.item.id,
      output_index: m.index,
      content_index: 0,
      delta,
      logprobs: [],
    });
  }

  /** An event of Iris's own (`iris.*`), in the same sequence_number order. */
  extension(type: `iris.${string}`, fields: Record<string, unknown>): void {
    this.event(type, fields);
  }

  /** Ends the response: the message, then the client's function calls, then completed. */
  finish(calls: readonly ToolCallPart[], usage: Usage): Record<string, unknown> & { output: Item[] } {
    this.closeMessage();
    for (const call of calls) this.functionCall(call);
    const response = { ...this.snapshot("completed"), usage: responsesUsage(usage) };
    this.event("response.completed", { response });
    return response;
  }

  /** Ends the response as failed (an upstream error). */
  fail(code: string, message: string): void {
    this.closeMessage();
    this.event("response.failed", { response: { ...this.snapshot("failed"), error: { code, message } } });
  }

  private openMessage() {
    const item: Item = {
      id: `msg_${randomUUID().replace(/-/g, "")}`,
      type: "message",
      role: "assistant",
      status: "in_progress",
      content: [],
    };
    const index = this.output.length;
    this.output.push(item);
    this.message = { item, index, text: "" };
    this.event("response.output_item.added", { output_index: index, item: { ...item } });
    this.event("response.content_part.added", {
      item_id: item.id,
      output_index: index,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    });
    return this.message;
  }

  private closeMessage(): void {
    const m = this.message;
    if (!m) return;
    this.message = undefined;
    const part = { type: "output_text", text: m.text, annotations: [], logprobs: [] };
    const at = { item_id: m.item.id, output_index: m.index, content_index: 0 };
    this.event("response.output_text.done", { ...at, text: m.text, logprobs: [] });
    this.event("response.content_part.done", { ...at, part });
    Object.assign(m.item, { status: "completed", content: [part] });
    this.event("response.output_item.done", { output_index: m.index, item: { ...m.item } });
  }

  private functionCall(call: ToolCallPart): void {
    const item: Item = {
      id: `fc_${randomUUID().replace(/-/g, "")}`,
      type: "function_call",
      call_id: call.callId,
      name: call.name,
      arguments: "",
      status: "in_progress",
    };
    const index = this.output.length;
    this.output.push(item);
    this.event("response.output_item.added", { output_index: index, item: { ...item } });
    this.event("response.function_call_arguments.delta", {
      item_id: item.id,
      output_index: index,
      delta: call.argumentsJson,
    });
    this.event("response.function_call_arguments.done", {
      item_id: item.id,
      output_index: index,
      name: call.name,
      arguments: call.argumentsJson,
    });
    Object.assign(item, { arguments: call.argumentsJson, status: "completed" });
    this.event("response.output_item.done", { output_index: index, item: { ...item } });
  }

  private snapshot(status: string) {
    const m = this.meta;
    return {
      id: m.id,
      object: "response",
      created_at: m.createdAt,
      status,
      model: m.model,
      output: this.output.map((i) => ({ ...i })),
      previous_response_id: m.previousResponseId,
      instructions: m.instructions,
      ...(m.conversation ? { conversation: { id: m.conversation } } : {}),
      error: null,
      incomplete_details: null,
      metadata: {},
      parallel_tool_calls: true,
      temperature: null,
      top_p: null,
      tool_choice: "auto",
      tools: [],
      text: { format: { type: "text" } },
      usage: null,
    };
  }

  private event(type: string, fields: Record<string, unknown>): void {
    this.emit({ type, sequence_number: this.seq++, ...fields });
  }
}
