// One route, one streamed call: the ModelClient the turn uses, over @iris/llm's streamLlm.
// Retries and fallback wrap this (they are policies, not part of a single call).
import { type LlmError, type Runtime, type StreamOptions, streamLlm, type Usage } from "@iris/llm";
import { type ModelClient, requestFor } from "../ports.js";
import type { RouteInfo } from "../turn/types.js";

export interface LlmClientOptions {
  /** USD for one call's usage on this route (from the model catalogue's prices). */
  costOf?: (usage: Usage) => number;
  stream?: Pick<StreamOptions, "idleTimeoutMs" | "connectTimeoutMs" | "fetch">;
  now?: () => number;
}

export class LlmModelClient implements ModelClient {
  constructor(
    readonly runtime: Runtime,
    private readonly opts: LlmClientOptions = {},
  ) {}

  route(): RouteInfo {
    const r = this.runtime;
    return { provider: r.provider, model: r.model, apiMode: r.apiMode, baseUrl: r.baseUrl };
  }

  async call(
    ...[request, { signal, onEvent }]: Parameters<ModelClient["call"]>
  ): ReturnType<ModelClient["call"]> {
    const now = this.opts.now ?? Date.now;
    const started = now();
    let error: LlmError | undefined;
    for await (const e of streamLlm(
      this.runtime,
      { ...requestFor(request, this.route()), model: this.runtime.model },
      {
        signal,
        ...this.opts.stream,
      },
    )) {
      if (e.type === "done") {
        const costUsd = this.opts.costOf?.(e.message.usage) ?? 0;
        return { ok: true, message: e.message, latencyMs: now() - started, costUsd };
      }
      if (e.type === "error") error = e.error;
      else onEvent(e);
    }
    return {
      ok: false,
      error: error ?? { kind: "invalid_response", message: "stream ended without a result", retryable: true },
    };
  }
}
