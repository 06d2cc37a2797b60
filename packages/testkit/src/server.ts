/** The fake LLM server: routing, request recording, shape validation and the step queue. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type SpeechRequest,
  serveSpeech,
  serveTranscription,
  type Transcriber,
  type Transcription,
} from "./audio.js";
import { errorBody } from "./render/errors.js";
import { IdMint, type RenderContext } from "./reply.js";
import { requestFacts, sendFault, sendJson, sendReply } from "./respond.js";
import { checkChatParams } from "./strict/chat-params.js";
import { PrefixCache } from "./strict/prefix-cache.js";
import { checkReasoning, reasoningAsked } from "./strict/reasoning-rules.js";
import { BlobSigner } from "./strict/signing.js";
import { countBodyTokens } from "./strict/tokens.js";
import { windowError, windowOf } from "./strict/window.js";
import type { ApiMode, FakeLlm, FakeLlmOptions, Handler, RecordedRequest, Step } from "./types.js";
import { isFault } from "./types.js";
import { checkBody, checkShape } from "./validate/request.js";
import { describeViolation } from "./validate/rule.js";

const DEFAULT_MODELS = ["fake-model", "gpt-fake", "claude-fake"];

function apiModeOf(method: string, path: string): ApiMode {
  if (method === "POST" && path.endsWith("/chat/completions")) return "chat_completions";
  if (method === "POST" && path.endsWith("/responses")) return "responses";
  if (method === "POST" && path.endsWith("/messages")) return "anthropic_messages";
  if (method === "GET" && path.endsWith("/models")) return "models";
  return "unknown";
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The vendor's 401 body when the request lacks the key or carries another one; else undefined. */
function authError(rec: RecordedRequest, key: string): unknown {
  const bearer = /^Bearer\s+(.+)$/i.exec(rec.headers.authorization ?? "")?.[1]?.trim();
  const given = bearer ?? rec.headers["x-api-key"];
  if (given === key) return undefined;
  if (rec.apiMode === "anthropic_messages") return errorBody(rec.apiMode, 401, "invalid x-api-key");
  const message =
    given === undefined
      ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
      : `Incorrect API key provided: ${given.length > 8 ? `${given.slice(0, 3)}***${given.slice(-4)}` : "***"}.`;
  return {
    error: {
      message,
      type: "invalid_request_error",
      param: null,
      code: given === undefined ? null : "invalid_api_key",
    },
  };
}

export async function startFakeLlm(opts: FakeLlmOptions = {}): Promise<FakeLlm> {
  const models = opts.models ?? DEFAULT_MODELS;
  const validate = opts.validate ?? true;
  const dialect = opts.chatDialect ?? "openai";
  const queue: Step[] = [];
  const requests: RecordedRequest[] = [];
  const violations: RecordedRequest[] = [];
  const overWindow: RecordedRequest[] = [];
  const ids = new IdMint();
  const signer = new BlobSigner();
  const prefixCache = new PrefixCache();
  const created = Math.floor(Date.now() / 1000);
  let handler: Handler | undefined;
  let transcriber: Transcriber | undefined;
  const transcriptions: Transcription[] = [];
  const speeches: SpeechRequest[] = [];

  async function nextStep(rec: RecordedRequest): Promise<Step | undefined> {
    const queued = queue.shift();
    if (queued !== undefined) return queued;
    return handler === undefined ? undefined : await handler(rec);
  }

  function reject(
    res: ServerResponse,
    rec: RecordedRequest,
    rule: string,
    where: string,
    message: string,
    body: unknown = errorBody(rec.apiMode, 400, message, where),
  ): void {
    rec.rejected = `${rule} at ${where}`;
    violations.push(rec);
    sendJson(res, 400, body);
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const rec: RecordedRequest = {
      method,
      path,
      headers: flattenHeaders(req),
      rawBody,
      body: parseJson(rawBody),
      apiMode: apiModeOf(method, path),
    };
    requests.push(rec);
    const denied = opts.apiKey === undefined ? undefined : authError(rec, opts.apiKey);
    if (denied !== undefined) {
      rec.rejected = "auth";
      sendJson(res, 401, denied);
      return;
    }
    if (rec.apiMode === "models") {
      const data = models.map((id) => ({ id, object: "model", created, owned_by: "fake-llm" }));
      sendJson(res, 200, { object: "list", data });
      return;
    }
    if (method === "POST" && path.endsWith("/audio/transcriptions"))
      return serveTranscription(rec.headers["content-type"] ?? "", rawBody, res, transcriber, transcriptions);
    if (method === "POST" && path.endsWith("/audio/speech")) return serveSpeech(rec.body, res, speeches);
    if (rec.apiMode === "unknown") {
      sendJson(res, 404, errorBody("unknown", 404, `fake-llm: no route for ${method} ${path}`));
      return;
    }
    const basic = checkBody(rec.apiMode, rawBody, rec.body);
    if (basic !== undefined) return reject(res, rec, basic.rule, basic.where, describeViolation(basic));
    const body = rec.body as Record<string, unknown>;
    if (validate) {
      const shape = checkShape(rec.apiMode, body, ids.callIds);
      if (shape !== undefined) return reject(res, rec, shape.rule, shape.where, describeViolation(shape));
      const foreign = checkReasoning(rec.apiMode, body, signer);
      if (foreign !== undefined) return reject(res, rec, foreign.rule, foreign.where, "", foreign.body);
      const param =
        rec.apiMode === "chat_completions"
          ? checkChatParams(dialect, body, opts.reasoningModels, signer)
          : undefined;
      if (param !== undefined) return reject(res, rec, param.rule, param.where, "", param.body);
    }
    const model = String(body.model);
    const inputTokens = countBodyTokens(body);
    rec.inputTokens = inputTokens;
    const window = windowOf(model, opts.contextWindows, opts.contextWindow);
    if (window !== undefined && inputTokens > window) {
      const over = windowError(rec.apiMode, inputTokens, window);
      rec.rejected = `context_window (${inputTokens} > ${window} tokens)`;
      overWindow.push(rec);
      sendJson(res, over.status, over.body);
      return;
    }
    const cached = prefixCache.account(rec.apiMode, model, rawBody.toString("utf8"), inputTokens, body);
    const step = await nextStep(rec);
    if (step === undefined) {
      sendJson(res, 500, errorBody(rec.apiMode, 500, "fake-llm: no scripted reply left"));
      return;
    }
    const facts = requestFacts(rec);
    const ctx: RenderContext = {
      ids,
      model,
      created,
      signer,
      reasoningAsked: reasoningAsked(rec.apiMode, body),
      reasoningField: dialect === "openrouter" ? "reasoning" : "reasoning_content",
      reasoningDetails: dialect === "openrouter",
    };
    const measured = { input: inputTokens, ...cached };
    if (isFault(step)) {
      sendFault(res, step, facts, ctx, measured);
      return;
    }
    for (const call of step.toolCalls ?? []) if (call.id !== undefined) ids.callIds.add(call.id);
    sendReply(res, step, facts, ctx, measured);
  }

  const server = createServer((req, res) => {
    serve(req, res).catch((err: unknown) => {
      const message = `fake-llm: internal error: ${err instanceof Error ? err.message : String(err)}`;
      process.stderr.write(`${message}\n`);
      if (!res.headersSent) sendJson(res, 500, errorBody("unknown", 500, message));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    violations,
    overWindow,
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    issue: (kind, text) => signer.sign(kind === "signature" ? "sig" : "enc", text),
    setHandler: (h) => {
      handler = h;
    },
    transcriptions,
    speeches,
    setTranscriber: (t) => {
      transcriber = t;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Ends keep-alive sockets and stalled streams, which would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
