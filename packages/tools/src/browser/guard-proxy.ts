// Every request the browser makes goes through this local proxy (Chromium's --proxy-server, with
// loopback no longer bypassed), so the private-address rule holds for each redirect hop, each
// subresource and each DNS answer: the route API of Playwright never sees redirect hops. Plain
// http is forwarded, https is tunnelled (CONNECT) to the address the guard checked. Where the
// profile's environment names an upstream proxy for the target (HTTPS_PROXY/HTTP_PROXY, not
// matched by NO_PROXY), the checked request is passed on to it instead: an absolute-URI request
// for http, a CONNECT of its own for https (the upstream proxy resolves the name itself, as it
// does for web_extract's requests).

import { lookup } from "node:dns/promises";
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import { connect, isIP, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { type AddressPolicy, BlockedAddressError, checkAddress, hostAllowed } from "../web/address-guard.js";
import type { Resolver } from "../web/http.js";
import { proxyAuthorization } from "../web/proxy-env.js";

export interface GuardProxy {
  /** `http://127.0.0.1:PORT` for --proxy-server. */
  url: string;
  /** The last refusals, newest last (what a navigation error explains). */
  refused: string[];
  close(): Promise<void>;
}

const systemResolve: Resolver = (host) => lookup(host, { all: true });

async function target(url: URL, policy: AddressPolicy, resolve: Resolver): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    checkAddress(url, host, policy);
    return host;
  }
  const answers = await resolve(host);
  if (!hostAllowed(url, policy)) for (const a of answers) checkAddress(url, a.address, policy);
  const first = answers[0];
  if (!first) throw new Error(`${host} has no address`);
  return first.address;
}

/** The upstream proxy a checked request goes through, or undefined to connect directly. */
export type UpstreamProxy = (url: URL) => URL | undefined;

/** A tunnel to `host:port` through an upstream proxy's CONNECT; rejects with its status line. */
function tunnelThrough(proxy: URL, hostPort: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(proxy.port || 80), proxy.hostname.replace(/^\[|\]$/g, ""));
    const auth = proxyAuthorization(proxy);
    socket.once("error", reject);
    socket.once("connect", () =>
      socket.write(
        `CONNECT ${hostPort} HTTP/1.1\r\nHost: ${hostPort}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ""}\r\n`,
      ),
    );
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > 16_384) socket.destroy(new Error("upstream proxy: answer too long"));
        return;
      }
      socket.off("data", onData);
      socket.off("error", reject);
      const status = head.subarray(0, head.indexOf("\r\n")).toString("latin1");
      if (!/^HTTP\/1\.[01] 2\d\d/.test(status)) {
        socket.destroy();
        return reject(new Error(`upstream proxy ${proxy.host} refused ${hostPort}: ${status}`));
      }
      const rest = head.subarray(end + 4);
      if (rest.length) socket.unshift(rest);
      resolve(socket);
    };
    socket.on("data", onData);
  });
}

export async function startGuardProxy(
  policy: AddressPolicy,
  resolve: Resolver = systemResolve,
  upstream: UpstreamProxy = () => undefined,
): Promise<GuardProxy> {
  const refused: string[] = [];
  const sockets = new Set<Socket | Duplex>();
  const refuse = (err: unknown): string => {
    const message = err instanceof Error ? err.message : String(err);
    refused.push(message);
    if (refused.length > 20) refused.shift();
    return message;
  };
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      return void res.writeHead(400).end("bad proxy request");
    }
    let address: string;
    try {
      address = await target(url, policy, resolve);
    } catch (err) {
      const message = refuse(err);
      const status = err instanceof BlockedAddressError ? 403 : 502;
      return void res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(message);
    }
    const headers: Record<string, string | string[] | undefined> = { ...req.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const via = upstream(url);
    const auth = via && proxyAuthorization(via);
    if (auth) headers["proxy-authorization"] = auth;
    const forwarded = request(
      via
        ? {
            host: via.hostname.replace(/^\[|\]$/g, ""),
            port: via.port || 80,
            path: url.toString(),
            method: req.method,
            headers,
          }
        : {
            host: address,
            port: url.port || 80,
            path: `${url.pathname}${url.search}`,
            method: req.method,
            headers,
          },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    forwarded.on("error", (err) => {
      if (!res.headersSent)
        res.writeHead(502, { "content-type": "text/plain" }).end(`${url.host}: ${err.message}`);
      else res.destroy();
    });
    req.pipe(forwarded);
  });
  server.on("connect", async (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    let address: string;
    const url = new URL(`https://${req.url ?? ""}`);
    try {
      address = await target(url, policy, resolve);
    } catch (err) {
      refuse(err);
      client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    const joined = (up: Socket) => {
      sockets.add(up);
      up.on("close", () => sockets.delete(up));
      up.on("error", () => client.destroy());
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    };
    const via = upstream(url);
    if (via) {
      tunnelThrough(via, `${url.hostname}:${url.port || 443}`).then(joined, (err) => {
        refuse(err);
        client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
      });
      return;
    }
    const up = connect(Number(url.port || 443), address);
    up.once("connect", () => joined(up));
    up.once("error", () => client.destroy());
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
