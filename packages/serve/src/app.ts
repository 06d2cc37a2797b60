// The HTTP surface of `iris serve` (SPEC E3): /health, and under /v1 the Bearer check, the body
// size limit, Idempotency-Key and the OpenAI endpoints. Every error is an OpenAI-shaped
// body with its status; nothing unexpected crashes the server or leaks a stack.

import { StoreError } from "@iris/host";
import type { Context } from "hono";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { chatCompletions } from "./chat-completions.js";
import type { ServeDeps, ServeEnv } from "./deps.js";
import { ApiError } from "./errors.js";
import { IdempotencyCache, type RecordedAnswer } from "./idempotency.js";
import { authenticate, isLoopback, ownerOf } from "./keys.js";
import { responses } from "./responses.js";
import { deleteResponse, listInputItems, retrieveResponse } from "./responses-read.js";

export function createApp(deps: ServeDeps): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();

  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json(err.body(), err.status as 400, err.headers);
    if (err instanceof StoreError) {
      // The profile's store failed outside a turn (a lost database): the server's fault, said plainly.
      deps.iris.logger.error(`serve: ${c.req.method} ${c.req.path} failed: ${err.message}`);
      const message = `Stopped: the profile's store failed (${err.message}); nothing half-written was kept, try again`;
      return c.json(new ApiError(503, message, "server_error", "store_error").body(), 503);
    }
    deps.iris.logger.error(`serve: ${c.req.method} ${c.req.path} failed: ${err.message}`);
    return c.json(new ApiError(500, "internal server error", "server_error").body(), 500);
  });
  app.notFound((c) =>
    c.json(
      new ApiError(
        404,
        `no route ${c.req.method} ${c.req.path}`,
        "invalid_request_error",
        "not_found",
      ).body(),
      404,
    ),
  );

  // One line per request in logs/iris.log (never the body, never a key): who, what, status, time.
  const log = deps.iris.logger.child({ component: "serve" });
  app.use("*", async (c, next) => {
    const started = Date.now();
    await next();
    log.info(`${c.req.method} ${c.req.path} ${c.res.status}`, {
      caller: c.get("caller") ?? "-",
      ms: Date.now() - started,
    });
  });

  app.get("/health", (c) => c.json({ status: "ok" }));

  app.use("/v1/*", async (c, next) => {
    if (deps.keys.length === 0) {
      refuseBrowsers(c);
      c.set("caller", "local");
      c.set("owner", "local");
    } else {
      const key = authenticate(c.req.header("authorization"), deps.keys);
      if (!key)
        throw new ApiError(
          401,
          "Incorrect or missing API key: send Authorization: Bearer <key>",
          "invalid_request_error",
          "invalid_api_key",
        );
      c.set("caller", key.name);
      c.set("owner", ownerOf(key));
    }
    await next();
  });
  const tooLarge = () => {
    throw new ApiError(
      413,
      `the body is larger than ${deps.config.max_body_bytes} bytes (serve.max_body_bytes)`,
      "invalid_request_error",
      "body_too_large",
    );
  };
  const limited = bodyLimit({ maxSize: deps.config.max_body_bytes, onError: tooLarge });
  app.use("/v1/*", async (c, next) => {
    // A body with a Content-Length is judged by it, as bodyLimit does, but without touching
    // `raw.body`: that would build a web stream around the socket for every request, where
    // reading the body directly (c.req.text()) is the node server's fast path. A chunked body
    // goes through bodyLimit, which counts its bytes.
    const length = c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding") !== undefined) return limited(c, next);
    if (Number.parseInt(length, 10) > deps.config.max_body_bytes) tooLarge();
    await next();
  });

  app.use("/v1/*", async (c, next) => {
    // A JSON content type makes a browser ask first (CORS preflight), which is never granted.
    if (c.req.method === "POST" && !/^application\/json\b/i.test(c.req.header("content-type") ?? ""))
      throw new ApiError(
        415,
        "send the body as Content-Type: application/json",
        "invalid_request_error",
        "unsupported_media_type",
      );
    await next();
  });

  app.get("/v1/models", (c) => c.json(deps.models.list()));
  app.get("/v1/models/:id", (c) => {
    const id = c.req.param("id");
    deps.models.resolve(id);
    return c.json(deps.models.list().data.find((m) => m.id === id));
  });
  app.post("/v1/chat/completions", (c) => idempotent(c, deps, () => chatCompletions(c, deps)));
  app.post("/v1/responses", (c) => idempotent(c, deps, () => responses(c, deps)));
  app.get("/v1/responses/:id", (c) => retrieveResponse(c, deps));
  app.delete("/v1/responses/:id", (c) => deleteResponse(c, deps));
  app.get("/v1/responses/:id/input_items", (c) => listInputItems(c, deps));
  return app;
}

/**
 * Without API keys (loopback only) the server trusts whoever can reach it, so a web page must not
 * be able to: a browser's request carries an Origin (refused unless loopback), and a DNS-rebound
 * name shows in the Host header (refused unless loopback).
 */
function refuseBrowsers(c: Context<ServeEnv>): void {
  const origin = c.req.header("origin");
  const host = c.req.header("host") ?? "";
  const hostName = host.replace(/:\d+$/, "");
  let originHost = "";
  try {
    originHost = origin ? new URL(origin).hostname : "";
  } catch {
    originHost = "?";
  }
  if ((origin && !isLoopback(originHost)) || !isLoopback(hostName))
    throw new ApiError(
      403,
      "without serve.api_keys only local programs may call this server (no browser pages, no other host names)",
      "invalid_request_error",
      "forbidden",
    );
}

/** Replays the first complete answer for the same (API key, endpoint, Idempotency-Key). */
async function idempotent(
  c: Context<ServeEnv>,
  deps: ServeDeps,
  handle: () => Promise<Response>,
): Promise<Response> {
  const key = c.req.header("idempotency-key")?.trim();
  if (!key) return handle();
  if (key.length > 256)
    throw new ApiError(
      400,
      "Idempotency-Key: at most 256 characters",
      "invalid_request_error",
      "invalid_request",
      "Idempotency-Key",
    );
  const scope = IdempotencyCache.scope(c.get("owner"), c.req.path, key);
  const claim = await deps.idempotency.begin(scope);
  if ("answer" in claim) return replay(claim.answer);
  const { settle } = claim;
  let res: Response;
  try {
    res = await handle();
  } catch (err) {
    if (err instanceof ApiError && err.status < 500)
      await settle({
        status: err.status,
        headers: { "content-type": "application/json", ...err.headers },
        body: JSON.stringify(err.body()),
      });
    else await settle(undefined);
    throw err;
  }
  const copy = res.clone();
  // A whole body is recorded before it goes out, so a retry on any replica finds it; a stream is
  // recorded as it goes out. Only a turn that ended as it should is kept.
  if (!res.headers.get("content-type")?.startsWith("text/event-stream")) {
    const body = await copy.text();
    await settle(c.get("complete") ? { status: res.status, headers: headersOf(res), body } : undefined);
    return res;
  }
  void copy
    .text()
    .then((body) =>
      settle(c.get("complete") ? { status: res.status, headers: headersOf(res), body } : undefined),
    )
    .catch(() => settle(undefined));
  return res;
}

/** Framing headers belong to the first transfer, not to the recorded body. */
const HOP_BY_HOP = new Set(["transfer-encoding", "content-length", "connection", "keep-alive"]);

function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!HOP_BY_HOP.has(k)) out[k] = v;
  });
  return out;
}

function replay(a: RecordedAnswer): Response {
  return new Response(a.body, { status: a.status, headers: { ...a.headers, "idempotent-replayed": "true" } });
}
