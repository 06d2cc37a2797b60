import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../runtime.js";
import { buildHeaders, joinUrl, openRequest } from "./transport.js";

const KEY = "sk-transport-SECRET-abcdef012345";

function runtime(baseUrl: string, auth: Runtime["compat"]["auth"] = "bearer"): Runtime {
  return {
    provider: "t",
    apiMode: "chat_completions",
    baseUrl,
    model: "m",
    apiKey: KEY,
    headers: { "X-Title": "iris", Authorization: "Bearer from-config-headers" },
    compat: { auth },
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "default",
      apiKey: "env",
    },
  };
}

const built = { path: "/chat/completions", body: { a: 1 }, headers: { "anthropic-version": "2023-06-01" } };

describe("buildHeaders", () => {
  it("attaches the key per compat.auth on the runtime's own origin", () => {
    const bearer = buildHeaders(
      runtime("https://api.example.com/v1"),
      built,
      "https://api.example.com/v1/x",
      true,
    );
    expect(bearer.authorization).toBe(`Bearer ${KEY}`);
    expect(bearer["x-title"]).toBe("iris");
    expect(bearer["anthropic-version"]).toBe("2023-06-01");
    expect(bearer.accept).toBe("text/event-stream");
    const xkey = buildHeaders(
      runtime("https://api.example.com", "x-api-key"),
      built,
      "https://api.example.com/v1/x",
      false,
    );
    expect(xkey["x-api-key"]).toBe(KEY);
    expect(xkey.accept).toBe("application/json");
    const none = buildHeaders(
      runtime("https://api.example.com", "none"),
      built,
      "https://api.example.com/x",
      true,
    );
    expect(Object.values(none).join(" ")).not.toContain(KEY);
  });

  it("sends no credential of any kind to another origin", () => {
    const h = buildHeaders(
      runtime("https://api.example.com/v1"),
      built,
      "https://evil.example.net/v1/x",
      true,
    );
    expect(h.authorization).toBeUndefined();
    expect(h["x-api-key"]).toBeUndefined();
    expect(Object.values(h).join(" ")).not.toContain(KEY);
    const port = buildHeaders(runtime("http://127.0.0.1:1/v1"), built, "http://127.0.0.1:2/v1/x", true);
    expect(port.authorization).toBeUndefined();
  });

  it("joins base URL and path without doubling the slash", () => {
    expect(joinUrl("http://h/v1/", "/chat/completions")).toBe("http://h/v1/chat/completions");
    expect(joinUrl("http://h/v1", "messages")).toBe("http://h/v1/messages");
  });
});

describe("openRequest connect timeout", () => {
  let server: Server;
  let port = 0;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Accepts connections and never answers: the response head never comes.
    server = createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const addr = server.address();
    port = typeof addr === "object" && addr ? addr.port : 0;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it("gives up with a timeout error when no response head arrives", async () => {
    const r = await openRequest(runtime(`http://127.0.0.1:${port}/v1`), built, {
      connectTimeoutMs: 150,
      idleTimeoutMs: 60_000,
      fetch: globalThis.fetch,
      stream: true,
    });
    expect(r.ok === false && r.error).toMatchObject({ kind: "timeout", retryable: true });
  });

  it("rejects a base URL that is not a URL", async () => {
    const r = await openRequest(runtime("not a url"), built, {
      connectTimeoutMs: 150,
      idleTimeoutMs: 150,
      fetch: globalThis.fetch,
      stream: true,
    });
    expect(r.ok === false && r.error.kind).toBe("invalid_request");
  });
});

describe("openRequest over node:http (no injected fetch)", () => {
  let server: HttpServer;
  let base = "";
  let connections = 0;
  const stalled: Socket[] = [];

  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (req.url === "/v1/silent") {
          stalled.push(req.socket);
          return;
        }
        if (req.url === "/v1/sse") {
          const text = "data: one\n\ndata: [DONE]\n\n";
          res.writeHead(200, {
            "content-type": "text/event-stream",
            "content-length": Buffer.byteLength(text),
          });
          res.end(text);
          return;
        }
        if (req.url === "/v1/gzip") {
          res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
          res.end(gzipSync(JSON.stringify({ packed: true })));
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ auth: req.headers.authorization ?? null }));
      });
    });
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const addr = server.address();
    base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/v1`;
  });
  afterAll(async () => {
    for (const s of stalled) s.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const opts = { connectTimeoutMs: 5_000, idleTimeoutMs: 5_000, stream: false };

  it("reuses one kept-alive connection across requests and sends the key", async () => {
    const before = connections;
    for (let i = 0; i < 3; i++) {
      const r = await openRequest(runtime(base), { ...built, path: "/echo" }, opts);
      if (!r.ok) throw new Error(r.error.message);
      expect(JSON.parse(await r.body.text())).toEqual({ auth: `Bearer ${KEY}` });
    }
    expect(connections - before).toBe(1);
  });

  it("keeps the connection when the consumer stops before the body's end", async () => {
    const first = await openRequest(runtime(base), { ...built, path: "/sse" }, { ...opts, stream: true });
    if (!first.ok) throw new Error(first.error.message);
    const before = connections;
    for await (const chunk of first.body.chunks()) {
      expect(Buffer.from(chunk).toString()).toContain("data: one");
      break;
    }
    // The rest was already received: it is discarded within this turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    const second = await openRequest(runtime(base), { ...built, path: "/echo" }, opts);
    if (!second.ok) throw new Error(second.error.message);
    await second.body.text();
    expect(connections).toBe(before);
  });

  it("an injected fetch is used instead when given", async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return globalThis.fetch(input, init);
    };
    const r = await openRequest(runtime(base), { ...built, path: "/echo" }, { ...opts, fetch: counting });
    if (!r.ok) throw new Error(r.error.message);
    expect(JSON.parse(await r.body.text())).toEqual({ auth: `Bearer ${KEY}` });
    expect(calls).toBe(1);
  });

  it("decodes a gzip body the server sends anyway", async () => {
    const r = await openRequest(runtime(base), { ...built, path: "/gzip" }, opts);
    if (!r.ok) throw new Error(r.error.message);
    expect(JSON.parse(await r.body.text())).toEqual({ packed: true });
  });

  it("gives up with a timeout error when no response head arrives", async () => {
    const r = await openRequest(
      runtime(base),
      { ...built, path: "/silent" },
      {
        connectTimeoutMs: 150,
        idleTimeoutMs: 150,
        stream: true,
      },
    );
    expect(r.ok === false && r.error).toMatchObject({ kind: "timeout", retryable: true });
  });

  it("an abort while waiting for the head → aborted", async () => {
    const controller = new AbortController();
    const pending = openRequest(
      runtime(base),
      { ...built, path: "/silent" },
      {
        ...opts,
        stream: true,
        signal: controller.signal,
      },
    );
    controller.abort();
    const r = await pending;
    expect(r.ok === false && r.error.kind).toBe("aborted");
  });

  it("names an unsupported scheme as a network failure", async () => {
    const r = await openRequest(runtime("ftp://127.0.0.1/v1"), built, opts);
    expect(r.ok === false && r.error).toMatchObject({ kind: "network" });
    expect(r.ok === false && r.error.message).toContain("ftp:");
  });
});
