/** Public scripting types of the fake LLM server. Format-neutral: one reply renders in any api mode. */
import type { SpeechRequest, Transcriber, Transcription } from "./audio.js";

export interface ScriptedToolCall {
  name: string;
  /** An object is sent as JSON.stringify(arguments); a string is sent as is (may be invalid JSON on purpose). */
  arguments: unknown;
  id?: string;
}

export interface ScriptedReply {
  text?: string;
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default: "tool_calls" when toolCalls is non-empty, else "refusal" when refusal is set, else "end". */
  stopReason?: "end" | "tool_calls" | "max_tokens" | "refusal";
  /** Refusal text (Anthropic: text + stop_reason refusal; OpenAI: refusal field / refusal part). */
  refusal?: string;
  /**
   * Token counts. `input` is the whole prompt, cached parts included (Anthropic's input_tokens is
   * rendered as input - cacheRead - cacheWrite). `output` includes `reasoning`.
   */
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number; reasoning?: number };
  /** Characters per text/argument delta (default 8). */
  chunkSize?: number;
  /** Response id. */
  id?: string;
}

export type Fault =
  | { fault: "status"; status: number; body?: unknown; headers?: Record<string, string>; retryAfter?: string }
  /**
   * 200 + SSE headers flushed, then silence until the client disconnects or close(). With
   * `reply` and `afterEvents`: that many SSE events of the reply first, then silence (a stall
   * mid-stream, for idle timeouts).
   */
  | { fault: "stall"; reply?: ScriptedReply; afterEvents?: number }
  /** Send that many SSE events of reply, then destroy the socket. */
  | { fault: "drop"; reply: ScriptedReply; afterEvents: number }
  /** SSE with a data line that is not JSON. */
  | { fault: "malformed" }
  | { fault: "raw"; status?: number; headers?: Record<string, string>; body: string };

export type Step = ScriptedReply | Fault;

export type ApiMode = "chat_completions" | "responses" | "anthropic_messages" | "models" | "unknown";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  rawBody: Buffer;
  body: unknown;
  apiMode: ApiMode;
  /** Set when a 400 shape rule fired: which rule and where. */
  rejected?: string;
  /** The prompt's size as this server counts it (strict/tokens.ts). */
  inputTokens?: number;
}

export type Handler = (req: RecordedRequest) => Step | Promise<Step>;

export interface FakeLlm {
  /** "http://127.0.0.1:PORT/v1" */
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests answered 400 by a shape rule (tests assert this stays empty). */
  violations: RecordedRequest[];
  /** Requests answered 400 because they exceeded the model's context window. */
  overWindow: RecordedRequest[];
  /** FIFO, shared across api modes. */
  enqueue(...steps: Step[]): void;
  /** Used when the queue is empty. */
  setHandler(handler: Handler | undefined): void;
  /** Every POST /v1/audio/transcriptions the fake accepted. */
  transcriptions: Transcription[];
  /** Every POST /v1/audio/speech the fake answered. */
  speeches: SpeechRequest[];
  /** What the audio sent to /v1/audio/transcriptions says (unset: those requests get a 500). */
  setTranscriber(transcriber: Transcriber | undefined): void;
  /**
   * An opaque reasoning blob as this server would issue it: `encrypted_content` for a Responses
   * reasoning item, `signature` for an Anthropic thinking block over `text`. For tests that build
   * stored histories as if this server had answered them.
   */
  issue(kind: "encrypted_content" | "signature", text: string): string;
  /** Also ends stalled connections. */
  close(): Promise<void>;
}

export interface FakeLlmOptions {
  port?: number;
  models?: string[];
  /** Shape validation, signed-reasoning checks included (default true). */
  validate?: boolean;
  /** Input-token window per model name; a bigger prompt gets the provider's real 400. */
  contextWindows?: Record<string, number>;
  /** Window for models without an entry in contextWindows (default: unlimited). */
  contextWindow?: number;
  /**
   * Chat Completions: whose parameters the server takes (strict/chat-params.ts), default "openai".
   * An unknown parameter or reasoning field gets that service's 400.
   */
  chatDialect?: "openai" | "openrouter" | "deepseek";
  /** Models that take reasoning parameters; when set, others answer them with a 400. */
  reasoningModels?: string[];
  /**
   * The key the server takes; when set, every route (GET /v1/models included) answers a missing
   * or different `Authorization: Bearer` / `x-api-key` with the vendor's 401, as OpenAI does.
   */
  apiKey?: string;
}

export function isFault(step: Step): step is Fault {
  return typeof (step as { fault?: unknown }).fault === "string";
}
