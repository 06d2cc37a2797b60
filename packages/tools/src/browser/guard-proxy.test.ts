// The browser's guard proxy chains to the profile's upstream proxy (HTTPS_PROXY/HTTP_PROXY,
// NO_PROXY honoured) after its own check: a plain http page and an https CONNECT both reach the
// upstream proxy (with its credentials), a NO_PROXY host goes direct, and a refused private
// address never reaches the upstream proxy at all. Real sockets on 127.0.0.1 only.
import { createServer as createHttpServer, request, type Server } from "node:http";
import { type AddressInfo, connect, createServer, type Server as NetServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxyFor } from "../web/proxy-env.js";
import { type GuardProxy, startGuardProxy } from "./guard-proxy.js";

let site: Server;
let echo: NetServer;
let upstream: Server;
const seen: { method: string; target: string; auth: string | undefined }[] = [];
let sitePort = 0;
let echoPort = 0;
let upstreamPort = 0;

const port = (s: { address(): unknown }) => (s.address() as AddressInfo).port;
const listen = (s: Server | NetServer) => new Promise<void>((r) => s.listen(0, "127.0.0.1", r));

beforeAll(async () => {
  site = createHttpServer((req, res) => res.end(`site ${req.url}`));
  echo = createServer((s) => s.pipe(s));
  // A minimal forwarding proxy: absolute-URI GETs and CONNECT tunnels, each one recorded.
  upstream = createHttpServer((req, res) => {
    seen.push({ method: req.method ?? "", target: req.url ?? "", auth: req.headers["proxy-authorization"] });
    const up = request(new URL(req.url ?? ""), { headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  upstream.on("connect", (req, client: Socket) => {
    seen.push({ method: "CONNECT", target: req.url ?? "", auth: req.headers["proxy-authorization"] });
    const [host = "", p = "0"] = (req.url ?? "").split(":");
    const up = connect(Number(p), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      up.pipe(client);
      client.pipe(up);
    });
    up.on("error", () => client.destroy());
  });
  await Promise.all([listen(site), listen(echo), listen(upstream)]);
  [sitePort, echoPort, upstreamPort] = [port(site), port(echo), port(upstream)];
});

afterAll(async () => {
  for (const s of [site, upstream]) s.closeAllConnections();
  await Promise.all([site, echo, upstream].map((s) => new Promise((r) => s.close(r))));
});

function guardWith(env: Record<string, string>, allowPrivate = true): Promise<GuardProxy> {
  return startGuardProxy({ allowPrivate, allowHosts: [] }, undefined, (url) => proxyFor(url, (k) => env[k]));
}

/** GET `url` through the guard as Chromium does (absolute URI to the proxy). */
function getThrough(guard: GuardProxy, url: string): Promise<{ status: number; body: string }> {
  const g = new URL(guard.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: g.hostname, port: g.port, path: url, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (c) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** CONNECT through the guard to `hostPort`, send "ping", and return the status and the echo. */
function tunnel(guard: GuardProxy, hostPort: string): Promise<{ status: number; echoed: string }> {
  const g = new URL(guard.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: g.hostname, port: g.port, method: "CONNECT", path: hostPort });
    req.on("connect", (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return resolve({ status: res.statusCode ?? 0, echoed: "" });
      }
      socket.once("data", (d) => {
        socket.destroy();
        resolve({ status: 200, echoed: d.toString() });
      });
      socket.write("ping");
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the browser's guard proxy chained to an upstream proxy", () => {
  it("passes http and https through HTTP(S)_PROXY with its credentials", async () => {
    seen.length = 0;
    const proxyUrl = `http://ann:s%3Acret@127.0.0.1:${upstreamPort}`;
    const guard = await guardWith({ HTTP_PROXY: proxyUrl, https_proxy: proxyUrl });
    try {
      const page = await getThrough(guard, `http://127.0.0.1:${sitePort}/a?b=1`);
      expect(page).toEqual({ status: 200, body: "site /a?b=1" });
      const t = await tunnel(guard, `127.0.0.1:${echoPort}`);
      expect(t).toEqual({ status: 200, echoed: "ping" });
      const auth = `Basic ${Buffer.from("ann:s:cret").toString("base64")}`;
      expect(seen).toEqual([
        { method: "GET", target: `http://127.0.0.1:${sitePort}/a?b=1`, auth },
        { method: "CONNECT", target: `127.0.0.1:${echoPort}`, auth },
      ]);
    } finally {
      await guard.close();
    }
  });

  it("goes direct for a NO_PROXY host, and without any proxy variable", async () => {
    seen.length = 0;
    const proxyUrl = `http://127.0.0.1:${upstreamPort}`;
    const envs: Record<string, string>[] = [
      { HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl, NO_PROXY: "localhost,127.0.0.1" },
      {},
    ];
    for (const env of envs) {
      const guard = await guardWith(env);
      try {
        expect((await getThrough(guard, `http://127.0.0.1:${sitePort}/direct`)).body).toBe("site /direct");
        expect((await tunnel(guard, `127.0.0.1:${echoPort}`)).echoed).toBe("ping");
      } finally {
        await guard.close();
      }
    }
    expect(seen).toEqual([]);
  });

  it("refuses a private address before the upstream proxy sees it", async () => {
    seen.length = 0;
    const proxyUrl = `http://127.0.0.1:${upstreamPort}`;
    const guard = await guardWith({ HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl }, false);
    try {
      const page = await getThrough(guard, `http://127.0.0.1:${sitePort}/secret`);
      expect(page.status).toBe(403);
      expect((await tunnel(guard, `127.0.0.1:${echoPort}`)).status).toBe(403);
      expect(seen).toEqual([]);
      expect(guard.refused.length).toBe(2);
    } finally {
      await guard.close();
    }
  });

  it("names the upstream proxy's refusal of a tunnel", async () => {
    const refusing = createHttpServer();
    refusing.on("connect", (_req, client: Socket) =>
      client.end("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n"),
    );
    await listen(refusing);
    const guard = await guardWith({ HTTPS_PROXY: `http://127.0.0.1:${port(refusing)}` });
    try {
      expect((await tunnel(guard, `127.0.0.1:${echoPort}`)).status).toBe(502);
      expect(guard.refused.at(-1)).toContain("407 Proxy Authentication Required");
    } finally {
      await guard.close();
      await new Promise((r) => refusing.close(r));
    }
  });
});
