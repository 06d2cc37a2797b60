// The web tools' fetch (SPEC T): node:http(s) through the HTTPS_PROXY/NO_PROXY of the profile's
// environment (.env over the shell; the same proxy agents the providers use), every redirect hop and every resolved address judged by the
// address guard, a byte cap that cuts instead of failing, and a timeout that always ends the call.
// Node's own fetch cannot take a proxy on Node 20 nor check the address it connects to.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { type AddressPolicy, checkAddress, hostAllowed } from "./address-guard.js";
import { decodeBody } from "./charset.js";
import { type EnvLookup, proxyAgent, proxyFor } from "./proxy-env.js";

export interface WebRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Whole request, redirects included. Default 15 s. */
  timeoutMs?: number;
  /** Body bytes kept (after decompression); the rest is dropped and `truncated` set. Default 5 MB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
}

export interface WebResponse {
  /** The URL after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  /** The body decoded by its charset (header, then <meta>, then UTF-8). */
  text(): string;
}

export type WebFetch = (url: string, init?: WebRequest) => Promise<WebResponse>;

export type Resolver = (host: string) => Promise<LookupAddress[]>;

export interface WebFetchOptions {
  policy: AddressPolicy;
  /** DNS answers (tests point a name at 127.0.0.1 here). Default the system resolver. */
  resolve?: Resolver;
  userAgent?: string;
  /** The profile's environment, for HTTPS_PROXY/HTTP_PROXY/NO_PROXY; unset: no proxy. */
  env?: EnvLookup;
}

export class WebRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebRequestError";
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** The only headers that follow a redirect to another origin (a key goes only to its own URL). */
const CROSS_ORIGIN_HEADERS = new Set(["accept", "accept-language", "user-agent"]);

const systemResolve: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

export function createWebFetch(options: WebFetchOptions): WebFetch {
  const resolve = options.resolve ?? systemResolve;
  const userAgent = options.userAgent ?? "Mozilla/5.0 (compatible; Iris agent)";
  return async (rawUrl, init = {}) => {
    const timeoutMs = init.timeoutMs ?? 15_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    let url = parseUrl(rawUrl);
    let method = init.method ?? "GET";
    let body = init.body;
    let headers: Record<string, string> = { "user-agent": userAgent, ...lowerKeys(init.headers ?? {}) };
    const maxRedirects = init.maxRedirects ?? 5;
    try {
      for (let hop = 0; ; hop++) {
        const address = await guard(url, options.policy, resolve);
        const res = await send(url, { method, headers, body, signal, address, env: options.env });
        const location = res.headers.location;
        if (REDIRECTS.has(res.statusCode ?? 0) && location) {
          res.resume();
          if (hop >= maxRedirects)
            throw new WebRequestError(`too many redirects (over ${maxRedirects}) from ${rawUrl}`);
          const next = parseUrl(new URL(location, url).toString());
          if (next.origin !== url.origin)
            headers = Object.fromEntries(
              Object.entries(headers).filter(([k]) => CROSS_ORIGIN_HEADERS.has(k)),
            );
          if (
            res.statusCode === 303 ||
            ((res.statusCode === 301 || res.statusCode === 302) && method === "POST")
          ) {
            method = "GET";
            body = undefined;
            delete headers["content-type"];
          }
          url = next;
          continue;
        }
        const { buffer, truncated } = await readCapped(res, init.maxBytes ?? 5_000_000, signal);
        const responseHeaders = flatHeaders(res);
        const finalUrl = url.toString();
        return {
          url: finalUrl,
          status: res.statusCode ?? 0,
          headers: responseHeaders,
          body: buffer,
          truncated,
          text: () => decodeBody(buffer, responseHeaders["content-type"]),
        };
      }
    } catch (err) {
      if (timeout.aborted) throw new WebRequestError(`${rawUrl}: timed out after ${timeoutMs / 1000} s`);
      if (init.signal?.aborted) throw new WebRequestError(`${rawUrl}: cancelled`);
      throw err;
    }
  };
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebRequestError(`not a URL: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new WebRequestError(
      `${url.protocol} URLs are not fetched (only http and https): ${raw.slice(0, 200)}`,
    );
  return url;
}

/** Resolves the host, refuses a private answer, and returns the address to connect to. */
async function guard(url: URL, policy: AddressPolicy, resolve: Resolver): Promise<LookupAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host);
  if (literal) {
    checkAddress(url, host, policy);
    return { address: host, family: literal };
  }
  let answers: LookupAddress[];
  try {
    answers = await resolve(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    throw new WebRequestError(`${url.toString()}: cannot resolve ${host} (${code})`);
  }
  if (answers.length === 0) throw new WebRequestError(`${url.toString()}: ${host} has no address`);
  // Every answer is judged: a name with one public and one private address is refused.
  if (!hostAllowed(url, policy)) for (const a of answers) checkAddress(url, a.address, policy);
  return answers[0] as LookupAddress;
}

interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal;
  address: LookupAddress;
  env: EnvLookup | undefined;
}

async function send(url: URL, o: SendOptions): Promise<IncomingMessage> {
  const proxy = o.env ? proxyFor(url, o.env) : undefined;
  const agent = proxy ? await proxyAgent(url, proxy) : undefined;
  const lib = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method: o.method,
        headers: {
          accept: "*/*",
          "accept-encoding": "gzip, deflate, br",
          ...o.headers,
          ...(o.body !== undefined ? { "content-length": String(Buffer.byteLength(o.body)) } : {}),
        },
        signal: o.signal,
        ...(agent
          ? { agent }
          : {
              // Connect to the address the guard checked, so a second DNS answer cannot differ.
              lookup: ((_host, opts, cb) =>
                opts.all
                  ? cb(null, [o.address])
                  : cb(null, o.address.address, o.address.family)) as LookupFunction,
            }),
      },
      resolve,
    );
    req.on("error", (err) => reject(connectError(url, err)));
    req.end(o.body);
  });
}

function connectError(url: URL, err: Error): Error {
  if (err.name === "AbortError") return err;
  const code = (err as NodeJS.ErrnoException).code;
  return new WebRequestError(`${url.toString()}: ${code ? `${code} ` : ""}${err.message}`.trim());
}

async function readCapped(
  res: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ buffer: Buffer; truncated: boolean }> {
  const encoding = String(res.headers["content-encoding"] ?? "").toLowerCase();
  const stream =
    encoding === "gzip" || encoding === "x-gzip"
      ? res.pipe(createGunzip())
      : encoding === "br"
        ? res.pipe(createBrotliDecompress())
        : encoding === "deflate"
          ? res.pipe(createInflate())
          : res;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (signal.aborted) throw signal.reason;
      const room = maxBytes - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size = maxBytes;
        truncated = chunk.length > room || !res.complete;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    if (!res.complete) res.destroy();
  }
  return { buffer: Buffer.concat(chunks, size), truncated };
}

function flatHeaders(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}
