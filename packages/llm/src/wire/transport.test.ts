import { createServer, type Server, type Socket } from "node:net";
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
