// The resolved route one request goes to (SPEC P1). Built by providers/resolve.ts, read by the
// transport. It is the only record that carries an endpoint together with its key.
import type { ApiMode } from "./types.js";

/** Where a resolved value came from (SPEC P2: explicit > config > env > default). */
export type ValueSource = "explicit" | "config" | "env" | "default" | "none";

/** Per-provider wire quirks, as data (no per-provider branches in code). */
export interface ProviderCompat {
  /** How the key travels. */
  auth: "bearer" | "x-api-key" | "none";
  /** Chat Completions: the field that limits output. */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Chat Completions: whether `stream_options.include_usage` is accepted. */
  streamUsage?: boolean;
  /** Whether the route honours prompt-cache markers (SPEC P6). */
  promptCache?: boolean;
  /**
   * Chat Completions: model-name prefixes whose upstream caches only what `cache_control` marks
   * on content parts (an aggregator's Anthropic and Gemini models); others cache on their own.
   */
  cacheMarkerModels?: readonly string[];
  /** Chat Completions: the route streams `reasoning_content` / accepts it back. */
  reasoningContent?: boolean;
  /**
   * Chat Completions: in a turn that called tools, every assistant message must carry
   * `reasoning_content` (DeepSeek and Kimi in thinking mode answer a missing one with a 400; in
   * other turns it is ignored, so every assistant message carries one).
   */
  reasoningContentOnToolTurns?: boolean;
  /** Chat Completions: the route returns `reasoning_details` and wants them back unchanged (OpenRouter). */
  reasoningDetails?: boolean;
  /** Chat Completions: which fields ask for reasoning (wire/chat-completions/reasoning-params.ts). */
  reasoningParams?: "openai" | "openrouter" | "deepseek" | "zai" | "qwen";
  /** Whether the route accepts tool definitions at all. */
  tools?: boolean;
}

export interface Runtime {
  provider: string;
  apiMode: ApiMode;
  /** e.g. https://api.openai.com/v1 — adapters append their path (/chat/completions, …). */
  baseUrl: string;
  model: string;
  /** Only ever sent to `baseUrl` (SPEC P3). */
  apiKey?: string;
  /** Name of the variable the key came from, for diagnostics (never the key itself). */
  apiKeyEnv?: string;
  headers: Record<string, string>;
  compat: ProviderCompat;
  source: {
    provider: ValueSource;
    model: ValueSource;
    baseUrl: ValueSource;
    apiMode: ValueSource;
    apiKey: ValueSource;
  };
  /** For credentials that expire and can be refreshed. */
  expiresAt?: number;
  /** Stall limits of this route (config `providers.ID.timeouts`); defaults in wire/stream.ts. */
  timeouts?: { firstByteMs?: number; idleMs?: number };
}
