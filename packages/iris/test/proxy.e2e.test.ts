// Provider requests honour HTTP_PROXY / NO_PROXY (issue 12) through the built bin: a small
// forwarding proxy in the test counts what passes through it.

import { writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

let fake: FakeLlm;
let proxy: Server;
let proxyUrl: string;
let seen: { url: string; proxyAuth: string | undefined }[];
let home: ReturnType<typeof tempHome>;

beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
  seen = [];
  // A forward proxy for plain-http targets: the request line carries the absolute URL.
  proxy = createServer((req, res) => {
    seen.push({ url: req.url ?? "", proxyAuth: req.headers["proxy-authorization"] });
    const target = new URL(req.url ?? "");
    const out = request(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterEach(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await fake.close();
  home.cleanup();
});

it("sends provider requests through HTTP_PROXY", async () => {
  fake.enqueue({ text: "via the proxy" });
  const r = await runIris(["-p", "hi", ...routeArgs(fake.baseUrl, "chat_completions")], {
    env: { IRIS_HOME: home.home, HTTP_PROXY: proxyUrl },
  });
  expect(r.stdout).toBe("via the proxy\n");
  expect(seen).toEqual([{ url: `${fake.baseUrl}/chat/completions`, proxyAuth: undefined }]);
  expect(fake.requests).toHaveLength(1);
});

it("NO_PROXY sends the request directly", async () => {
  fake.enqueue({ text: "direct" });
  const r = await runIris(["-p", "hi", ...routeArgs(fake.baseUrl, "chat_completions")], {
    env: { IRIS_HOME: home.home, HTTP_PROXY: proxyUrl, NO_PROXY: "127.0.0.1" },
  });
  expect(r.stdout).toBe("direct\n");
  expect(seen).toEqual([]);
});

it("asks a custom endpoint for its models through HTTP_PROXY too, and directly under NO_PROXY", async () => {
  writeFileSync(
    join(home.home, "config.yaml"),
    `model: {provider: mybox, name: fake-model}\nproviders:\n  mybox: {base_url: '${fake.baseUrl}', api_mode: chat_completions}\n`,
  );
  const viaProxy = await runIris(["models", "--provider", "mybox"], {
    env: { IRIS_HOME: home.home, HTTP_PROXY: proxyUrl },
  });
  expect(viaProxy.stderr).toBe("");
  expect(viaProxy.stdout).toContain("mybox/fake-model");
  expect(seen).toEqual([{ url: `${fake.baseUrl}/models`, proxyAuth: undefined }]);
  const direct = await runIris(["models", "--provider", "mybox"], {
    env: { IRIS_HOME: home.home, HTTP_PROXY: proxyUrl, NO_PROXY: "127.0.0.1" },
  });
  expect(direct.stdout).toContain("mybox/fake-model");
  expect(seen).toHaveLength(1);
});
