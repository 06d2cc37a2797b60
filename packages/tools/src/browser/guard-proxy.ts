// Every request the browser makes goes through this local proxy (Chromium's --proxy-server, with
// loopback no longer bypassed), so the private-address rule holds for each redirect hop, each
// subresource and each DNS answer: the route API of Playwright never sees redirect hops. Plain
// http is forwarded, https is tunnelled (CONNECT) to the address the guard checked.

import { lookup } from "node:dns/promises";
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import { connect, isIP, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { type AddressPolicy, BlockedAddressError, checkAddress, hostAllowed } from "../web/address-guard.js";
import type { Resolver } from "../web/http.js";

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

export async function startGuardProxy(
  policy: AddressPolicy,
  resolve: Resolver = systemResolve,
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
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    const upstream = request(
      {
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
    upstream.on("error", (err) => {
      if (!res.headersSent)
        res.writeHead(502, { "content-type": "text/plain" }).end(`${url.host}: ${err.message}`);
      else res.destroy();
    });
    req.pipe(upstream);
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
    const up = connect(Number(url.port || 443), address, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    up.on("close", () => sockets.delete(up));
    up.on("error", () => client.destroy());
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
