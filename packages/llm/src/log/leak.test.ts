// A key fed through a failing request appears in no log line and no error message (issue 2 item 5).
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../providers/builtin/index.js";
import { resolveRuntime } from "../providers/resolve.js";
import { completeLlm, streamLlm } from "../wire/stream.js";
import { createLogger } from "./logger.js";

// An opaque key (no recognisable shape): only registration by resolveRuntime can hide it.
const OPAQUE_KEY = "Zq7opaqueKEYvalue4815162342";
const SK_KEY = "sk-live-4815162342-abcdefghijkl";

let server: FakeLlm;
beforeAll(async () => {
  server = await startFakeLlm();
  // Like a careless real API: the 401 body echoes the credential it was given.
  server.setHandler((req) => ({
    fault: "status",
    status: 401,
    body: {
      error: {
        message: `Incorrect API key provided: ${req.headers.authorization ?? req.headers["x-api-key"]}`,
        key: req.headers["x-api-key"] ?? req.headers.authorization,
      },
    },
  }));
});
afterAll(async () => {
  await server?.close();
});

describe("secrets never reach logs or errors", () => {
  for (const [apiMode, key] of [
    ["chat_completions", OPAQUE_KEY],
    ["responses", SK_KEY],
    ["anthropic_messages", OPAQUE_KEY],
  ] as const) {
    it(`${apiMode}: a 401 echoing the key`, async () => {
      const resolved = resolveRuntime(
        { provider: "mine", model: "m" },
        { providers: { mine: { base_url: server.baseUrl, api_mode: apiMode, api_key_env: "MINE_KEY" } } },
        { MINE_KEY: key },
      );
      if (!resolved.ok) throw new Error(resolved.error);
      const { runtime } = resolved;
      expect(runtime.compat.auth).toBe(apiMode === "anthropic_messages" ? "x-api-key" : "bearer");

      const lines: string[] = [];
      const log = createLogger({ level: "debug", sink: (l) => lines.push(l) });
      const request = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };
      const result = await completeLlm(runtime, request);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.kind).toBe("auth");

      // The server really saw (and echoed) the key: the test can fail.
      const seen = server.requests[server.requests.length - 1]!;
      expect(JSON.stringify(seen.headers)).toContain(key);

      const events = [];
      for await (const e of streamLlm(runtime, request)) events.push(e);
      log.error(`call failed: ${result.error.message}`, { error: result.error, runtime, events });
      log.debug("raw request headers", { headers: seen.headers });
      log.info(`server said ${JSON.stringify(seen.headers)}`);
      log.warn("thrown", { err: new Error(`wrapped ${key}`, { cause: { body: `echo ${key}` } }) });

      expect(result.error.message).not.toContain(key);
      expect(lines.length).toBe(4);
      for (const line of lines) expect(line).not.toContain(key);
    });
  }
});
