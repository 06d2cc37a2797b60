// @mattermost/client's WebSocketClient on Node 20. The client is written for a browser: its
// default socket is the global WebSocket, which Node 20 lacks, it reads the global WebSocket
// (`readyState === WebSocket.OPEN`) and CloseEvent even with its `newWebSocketFn`, and it writes
// console.log lines (stdout is the user's). So its socket is a `ws` one here, authenticated by the
// upgrade's Authorization header (a refused token is the upgrade's 401, which ws reports, rather
// than a challenge reply the client drops), and every call into the client and every handler it
// set runs in `clientScope`: the two globals present and its console lines sent to our logger,
// both put back when the call returns. Liveness is a protocol ping: the client's own ping timer,
// left idle, would write to stdout when it fired.
import mattermost from "@mattermost/client";
import { WebSocket as WS } from "ws";

const { WebSocketClient } = mattermost;
type Client = InstanceType<typeof WebSocketClient>;

/** CloseEvent as browsers have it (Node 20 has Event, not CloseEvent). */
class ShimCloseEvent extends Event {
  readonly code: number;
  readonly reason: string;
  readonly wasClean: boolean;
  constructor(type: string, init: { code?: number; reason?: string; wasClean?: boolean } = {}) {
    super(type);
    this.code = init.code ?? 0;
    this.reason = init.reason ?? "";
    this.wasClean = init.wasClean ?? false;
  }
}

const describe = (v: unknown): string =>
  typeof v === "string" ? v : v instanceof Error ? v.message : (JSON.stringify(v) ?? String(v));

/** Runs `fn` (the client's code) with the browser globals it reads and its console lines to `log`. */
function clientScope<T>(log: (line: string) => void, fn: () => T): T {
  const g = globalThis as Record<string, unknown>;
  const saved = { ws: g.WebSocket, close: g.CloseEvent, log: console.log, warn: console.warn };
  if (saved.ws === undefined) g.WebSocket = WS;
  if (saved.close === undefined) g.CloseEvent = ShimCloseEvent;
  console.log = console.warn = (...parts: unknown[]) => log(parts.map(describe).join(" "));
  try {
    return fn();
  } finally {
    g.WebSocket = saved.ws;
    g.CloseEvent = saved.close;
    console.log = saved.log;
    console.warn = saved.warn;
  }
}

type Handler = ((event: unknown) => void) | null;

/** The socket the client is given: `ws`, with its handlers run in the client's scope. */
class ScopedSocket {
  private awaitingPong = false;
  private readonly pinger: NodeJS.Timeout;

  constructor(
    private readonly ws: WS,
    /** Runs a handler in the client's scope; not at all once the socket was closed for good. */
    private readonly scope: (fn: () => void) => void,
    pingMs: number,
  ) {
    // A route that went silent (no pong by the next ping) is cut: the client then reconnects.
    this.pinger = setInterval(() => {
      if (ws.readyState !== WS.OPEN) return;
      if (this.awaitingPong) return void ws.terminate();
      this.awaitingPong = true;
      ws.ping();
    }, pingMs);
    ws.on("pong", () => {
      this.awaitingPong = false;
    });
    ws.on("close", () => clearInterval(this.pinger));
    ws.on("error", () => {}); // reported through onerror and onclose
  }
  get readyState(): number {
    return this.ws.readyState;
  }
  send(data: string): void {
    this.ws.send(data);
  }
  close(): void {
    this.ws.close();
  }
  terminate(): void {
    clearInterval(this.pinger);
    this.ws.terminate();
  }
  private wrap(fn: Handler): Handler {
    return fn && ((e: unknown) => this.scope(() => fn(e)));
  }
  set onopen(fn: Handler) {
    this.ws.onopen = this.wrap(fn);
  }
  set onclose(fn: Handler) {
    this.ws.onclose = this.wrap(fn);
  }
  set onerror(fn: Handler) {
    this.ws.onerror = this.wrap(fn);
  }
  set onmessage(fn: Handler) {
    this.ws.onmessage = this.wrap(fn);
  }
}

export interface SocketOptions {
  /** ws(s)://…/api/v4/websocket */
  url: string;
  token: string;
  /** The client's console lines (debug). */
  log(line: string): void;
  /** Each event, in order, outside the client's scope. */
  event(message: unknown): void;
  /** The server could not resume the connection (a new connection id): events were missed. */
  missed(): void;
  /** The socket closed (the client reconnects by itself). */
  closed(): void;
  /** The upgrade was refused with 401: the token is no longer valid. */
  refused(): void;
  pingMs?: number;
}

/** The official WebSocketClient wired for Node 20; `client` is used only through `call`. */
export class MattermostSocket {
  private readonly client: Client;
  private current: ScopedSocket | undefined;
  private closed = false;

  private lastError = "";

  constructor(private readonly opts: SocketOptions) {
    this.client = new WebSocketClient({
      newWebSocketFn: ((url: string) => this.open(url)) as never,
      // Idle: the protocol ping in ScopedSocket finds a dead route instead (see the top).
      clientPingInterval: 2 ** 31 - 1,
    });
    this.call((c) => {
      // Work leaves the client's handler first (its scope swaps globals while it runs).
      c.addMessageListener((m) => queueMicrotask(() => opts.event(m)));
      c.addMissedMessageListener(() => queueMicrotask(() => opts.missed()));
      c.addErrorListener((e) => {
        this.lastError = String((e as { message?: unknown }).message ?? "a socket error");
      });
      c.addCloseListener(() => queueMicrotask(() => opts.closed()));
    });
  }

  /** Runs `fn` on the client inside its scope (every call into it goes through here). */
  call<T>(fn: (client: Client) => T): T {
    return clientScope(this.opts.log, () => fn(this.client));
  }

  /** Connects; resolves at the server's first `hello`, fails (closed again) after `timeoutMs`. */
  async connect(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const hello = new Promise<void>((resolve) => {
      const listener = (m: unknown) => {
        if ((m as { event?: unknown }).event !== "hello") return;
        this.call((c) => c.removeMessageListener(listener));
        resolve();
      };
      this.call((c) => {
        c.addMessageListener(listener);
        c.initialize(this.opts.url);
      });
    });
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const why = this.lastError ? ` (${this.lastError})` : "";
        reject(new Error(`the WebSocket did not connect within ${timeoutMs / 1000} s${why}`));
      }, timeoutMs);
    });
    try {
      await Promise.race([hello, late]);
    } catch (err) {
      this.close();
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The server's clock, from its answer to a ping (this machine's when none comes in 5 s). */
  serverTime(): Promise<number> {
    return new Promise((resolve) => {
      const fallback = setTimeout(() => resolve(Date.now()), 5000);
      this.call((c) =>
        c.ping((reply: { data?: { server_time?: unknown } }) => {
          clearTimeout(fallback);
          const t = reply?.data?.server_time;
          resolve(typeof t === "number" && t > 0 ? t : Date.now());
        }),
      );
    });
  }

  close(): void {
    this.closed = true;
    this.call((c) => c.close());
    // A socket still connecting when the client closed would open later: cut it too.
    this.current?.terminate();
  }

  private open(url: string): ScopedSocket {
    const ws = new WS(url, { headers: { Authorization: `Bearer ${this.opts.token}` } });
    ws.on("error", (err) => {
      if (/Unexpected server response: 401\b/.test(err.message)) this.opts.refused();
    });
    // After close() the client hears nothing more (a late close event would schedule a reconnect).
    const scope = (fn: () => void) => {
      if (!this.closed) clientScope(this.opts.log, fn);
    };
    const socket = new ScopedSocket(ws, scope, this.opts.pingMs ?? 30_000);
    this.current = socket;
    if (this.closed) socket.terminate();
    return socket;
  }
}
