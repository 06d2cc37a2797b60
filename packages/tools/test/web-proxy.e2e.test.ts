// web_extract honours the HTTP_PROXY / NO_PROXY of the profile's environment (what the tool
// environment is given: .env over the shell), with the providers' proxy agents: a page goes
// through the proxy, and a host in NO_PROXY is reached directly. The private-address rule is
// still applied before the request leaves.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestSite, type TestSite } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webTools } from "./web-tools.js";

let site: TestSite;
let proxy: Server;
const proxied: string[] = [];
const env: Record<string, string | undefined> = {};

beforeAll(async () => {
  site = await startTestSite();
  proxy = createServer((req, res) => {
    proxied.push(req.url ?? "");
    const target = new URL(req.url ?? "");
    const up = request(target, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await site.close();
});

describe("web_extract through a proxy", () => {
  it("sends the request through HTTP_PROXY, and not for a NO_PROXY host", async () => {
    const { call } = await webTools({
      env,
      web: { policy: { allowPrivate: false, allowHosts: [new URL(site.baseUrl).host] } },
    });
    const out = await call("web_extract", { urls: [site.url("/docs/streams")] });
    expect(out.content).toContain("## Node streams guide");
    expect(proxied).toEqual([site.url("/docs/streams")]);
    env.NO_PROXY = "127.0.0.1";
    const direct = await call("web_extract", { urls: [site.url("/news/seoul-weather")] });
    expect(direct.content).toContain("## 서울 날씨");
    expect(proxied).toHaveLength(1);
    // The guard still judges the target, proxy or not.
    delete env.NO_PROXY;
    const refused = await call("web_extract", { urls: [site.url("/to-internal")] });
    expect(refused.content).toContain("refused");
    expect(site.internal.hits).toEqual([]);
  });
});
