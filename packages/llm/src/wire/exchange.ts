// How one POST goes out and its reply comes back. By default node:http(s) on keep-alive agents
// (connections are reused between rounds; fetch/undici costs tens of ms to load and more per
// chunk); an injected fetch (tests, proxies) is driven through the same `Exchange`.
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from "node:http";
import { pipeline, type Readable } from "node:stream";
import type { HeaderLookup } from "./classify.js";
import { proxyAgentFor } from "./proxy.js";

/** One reply: its head, then its body chunk by chunk. */
export interface Exchange {
  readonly status: number;
  readonly headers: HeaderLookup;
  /** The next body chunk, or undefined at the end; rejects when the reply fails. */
  read(): Promise<Uint8Array | undefined>;
  /** Stops the download and gives up the connection (it is not reused). */
  cancel(): void;
  /**
   * The consumer has all it wants (e.g. the terminal event came before the body's end): the rest
   * is read and discarded, unparsed, so that the connection can serve the next request; a rest
   * that is long or slow gets the connection dropped instead.
   */
  release(): void;
}

export interface Outgoing {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Sends one request; `setStop` receives what tears it down (an abort or a timeout). */
export type Sender = (out: Outgoing, setStop: (stop: () => void) => void) => Promise<Exchange>;

/** Idle pooled connections close after this unless the server hints sooner (as undici did). */
const FREE_SOCKET_MS = 4_000;
/** How much of an unwanted rest is read to keep a connection (normally just the final chunk). */
const DRAIN_MAX_BYTES = 64 * 1024;
const DRAIN_MAX_MS = 1_000;

type RequestFn = typeof httpRequest;
interface Client {
  request: RequestFn;
  agent: HttpAgent;
}

let httpClient: Client | undefined;
let httpsClient: Promise<Client> | undefined;

// Pooled idle sockets are unref'd by the agent: they never keep the process alive.
function clientFor(protocol: string): Client | Promise<Client> {
  if (protocol === "http:") {
    httpClient ??= {
      request: httpRequest,
      agent: new HttpAgent({ keepAlive: true, timeout: FREE_SOCKET_MS }),
    };
    return httpClient;
  }
  if (protocol === "https:") {
    // TLS is loaded only when a route needs it.
    httpsClient ??= import("node:https").then((https) => ({
      request: https.request,
      agent: new https.Agent({ keepAlive: true, timeout: FREE_SOCKET_MS }),
    }));
    return httpsClient;
  }
  throw new Error(`unsupported URL scheme ${protocol}`);
}

class RequestStopped extends Error {
  constructor() {
    super("the request was stopped");
  }
}

const ignore = () => {};

/** POST over node:http(s). */
export const sendHttp: Sender = async (out, setStop) => {
  const url = new URL(out.url);
  const client = await clientFor(url.protocol);
  const agent = (await proxyAgentFor(url)) ?? client.agent;
  return new Promise<Exchange>((resolve, reject) => {
    const req = client.request(url, {
      method: "POST",
      agent,
      headers: {
        // What fetch sent before; some gateways refuse requests without any user agent.
        "user-agent": "node",
        ...out.headers,
        // Plain bytes: SSE is flushed as it comes; a server that compresses anyway is decoded.
        "accept-encoding": "identity",
        "content-length": String(Buffer.byteLength(out.body)),
      },
    });
    let res: IncomingMessage | undefined;
    // The first failure rejects the head; later ones reach the body reader through `read()`.
    req.on("error", reject);
    setStop(() => {
      const stopped = new RequestStopped();
      res?.destroy(stopped);
      req.destroy(stopped);
    });
    req.once("response", (r) => {
      res = r;
      r.on("error", ignore);
      resolve(httpExchange(req, r));
    });
    req.end(out.body);
  });
};

async function httpExchange(req: ClientRequest, res: IncomingMessage): Promise<Exchange> {
  const body = await decoded(res);
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  return {
    status: res.statusCode ?? 0,
    headers: {
      get(name: string): string | null {
        const value = res.headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(", ") : value;
      },
    },
    async read() {
      const step = await iterator.next();
      return step.done ? undefined : step.value;
    },
    cancel,
    release() {
      if (res.readableEnded) return;
      const timer = setTimeout(cancel, DRAIN_MAX_MS);
      timer.unref();
      drain(iterator).then(
        (whole) => {
          clearTimeout(timer);
          if (!whole) cancel();
        },
        () => {
          clearTimeout(timer);
          cancel();
        },
      );
    },
  };
  function cancel(): void {
    body.destroy();
    res.destroy();
    req.destroy();
  }
}

/** Reads to the end unless the rest is too long; true when the end was reached. */
async function drain(iterator: AsyncIterator<Uint8Array>): Promise<boolean> {
  let seen = 0;
  for (;;) {
    const step = await iterator.next();
    if (step.done) return true;
    seen += step.value.length;
    if (seen > DRAIN_MAX_BYTES) return false;
  }
}

/** The body with any content coding removed. */
async function decoded(res: IncomingMessage): Promise<Readable> {
  const coding = (res.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (coding === "identity" || coding === "") return res;
  const zlib = await import("node:zlib");
  const decoder =
    coding === "br"
      ? zlib.createBrotliDecompress()
      : coding === "deflate"
        ? zlib.createInflate()
        : coding === "gzip" || coding === "x-gzip"
          ? zlib.createGunzip()
          : undefined;
  if (!decoder) {
    res.destroy();
    throw new Error(`unsupported content-encoding ${coding}`);
  }
  decoder.on("error", ignore);
  pipeline(res, decoder, ignore);
  return decoder;
}

/** POST through an injected fetch (tests, proxies); redirects come back to the caller. */
export function fetchSender(fetchImpl: typeof fetch): Sender {
  return async (out, setStop) => {
    const controller = new AbortController();
    setStop(() => controller.abort());
    const res = await fetchImpl(out.url, {
      method: "POST",
      headers: out.headers,
      body: out.body,
      signal: controller.signal,
      redirect: "manual",
    });
    const reader = res.body?.getReader();
    return {
      status: res.status,
      headers: res.headers,
      async read() {
        if (!reader) return undefined;
        const step = await reader.read();
        return step.done ? undefined : step.value;
      },
      cancel,
      // As before the node:http transport: whatever fetch does with a cancelled body.
      release: cancel,
    };
    function cancel(): void {
      controller.abort();
      reader?.cancel().catch(ignore);
    }
  };
}
