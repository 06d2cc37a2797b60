// A fake `signal-cli daemon --http` (the API Hermes and Iris talk to; not bbernhard's REST API):
// GET /api/v1/check, GET /api/v1/events?account=… (server-sent `receive` events whose data is
// {envelope, account}), and POST /api/v1/rpc (JSON-RPC 2.0: send, sendReaction, sendTyping,
// getAttachment). It is strict where the daemon is: a body that is not JSON-RPC 2.0 is -32600,
// an unknown method -32601, missing or wrong params (no account, both or neither of recipient and
// groupId, an unknown recipient or group, an empty message) -32602. Events wait in a queue while
// no one listens (the daemon keeps them until a client reads), so a restart loses none.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SignalUser {
  number: string;
  uuid: string;
  name: string;
}

export interface FakeSignalOptions {
  /** The bot's account (E.164). */
  account: string;
  users: { number: string; name: string }[];
  /** Groups by id (base64 in signal-cli), each with its members' numbers. */
  groups?: Record<string, string[]>;
}

export interface SignalFile {
  bytes: Buffer;
  contentType: string;
  filename?: string;
  voiceNote?: boolean;
}

export interface SignalSent {
  /** A recipient's number or a group id. */
  to: string;
  message: string;
  attachments: SignalFile[];
  timestamp: number;
}

export type Envelope = Record<string, unknown>;

const RPC = {
  parse: -32700,
  request: -32600,
  method: -32601,
  params: -32602,
};

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export class FakeSignal {
  readonly users: SignalUser[];
  readonly accountUuid = randomUUID();
  readonly sent: SignalSent[] = [];
  readonly reactions: { to: string; emoji: string; targetAuthor: string; targetTimestamp: number }[] = [];
  readonly typing: string[] = [];
  /** Events no listener has read yet. */
  private readonly queue: Envelope[] = [];
  private readonly listeners = new Set<ServerResponse>();
  private readonly files = new Map<string, SignalFile>();
  private lastTs = 0;
  private lastEnvelope: Envelope | undefined;
  /** Events sent to a listener, counted (the soak's figures). */
  delivered = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly opts: FakeSignalOptions,
  ) {
    this.users = opts.users.map((u) => ({ ...u, uuid: randomUUID() }));
  }

  static async start(opts: FakeSignalOptions): Promise<FakeSignal> {
    let fake: FakeSignal | undefined;
    const server = createServer((req, res) => {
      fake?.route(req, res).catch((err) => {
        if (!res.headersSent) res.writeHead(500).end(String(err));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeSignal(server, `http://127.0.0.1:${port}`, opts);
    return fake;
  }

  async close(): Promise<void> {
    for (const l of this.listeners) l.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
  }

  get listening(): number {
    return this.listeners.size;
  }

  /** A user's message to the bot (DM) or to a group; its timestamp (the message's id). */
  userSends(m: { from: string; text?: string; group?: string; attachments?: SignalFile[] }): number {
    const u = this.user(m.from);
    const timestamp = this.now();
    this.push({
      source: u.number,
      sourceNumber: u.number,
      sourceUuid: u.uuid,
      sourceName: u.name,
      sourceDevice: 1,
      timestamp,
      dataMessage: {
        timestamp,
        message: m.text ?? null,
        expiresInSeconds: 0,
        viewOnce: false,
        ...(m.group ? { groupInfo: { groupId: this.group(m.group), type: "DELIVER" } } : {}),
        ...(m.attachments?.length ? { attachments: m.attachments.map((a) => this.attach(a)) } : {}),
      },
    });
    return timestamp;
  }

  /** The account's owner writes from a linked device (a phone): a syncMessage.sentMessage. */
  linkedDeviceSends(m: { text: string; group?: string }): number {
    const timestamp = this.now();
    this.push({
      source: this.opts.account,
      sourceNumber: this.opts.account,
      sourceUuid: this.accountUuid,
      sourceName: "owner",
      sourceDevice: 2,
      timestamp,
      syncMessage: {
        sentMessage: {
          destination: m.group ? null : this.opts.account,
          destinationNumber: m.group ? null : this.opts.account,
          destinationUuid: m.group ? null : this.accountUuid,
          timestamp,
          message: m.text,
          expiresInSeconds: 0,
          ...(m.group ? { groupInfo: { groupId: this.group(m.group), type: "DELIVER" } } : {}),
        },
      },
    });
    return timestamp;
  }

  /** The last envelope again (signal-cli repeats one after a failed ack). */
  redeliver(): void {
    if (this.lastEnvelope) this.push(this.lastEnvelope);
  }

  /** What the bot sent to a number or group, in order. */
  sentTo(to: string): SignalSent[] {
    return this.sent.filter((s) => s.to === to);
  }

  private user(id: string): SignalUser {
    const u = this.users.find((x) => x.number === id || x.uuid === id);
    if (!u) throw new RpcError(RPC.params, `Unregistered user: ${id}`);
    return u;
  }

  private group(id: string): string {
    if (!this.opts.groups?.[id]) throw new RpcError(RPC.params, `Group not found: ${id}`);
    return id;
  }

  private now(): number {
    this.lastTs = Math.max(Date.now(), this.lastTs + 1);
    return this.lastTs;
  }

  private attach(a: SignalFile): Record<string, unknown> {
    const id = `${randomUUID().replace(/-/g, "").slice(0, 20)}.${a.contentType.split("/")[1] ?? "bin"}`;
    this.files.set(id, a);
    return {
      contentType: a.contentType,
      filename: a.filename ?? null,
      id,
      size: a.bytes.length,
      ...(a.voiceNote ? { voiceNote: true } : {}),
    };
  }

  private push(envelope: Envelope): void {
    this.lastEnvelope = envelope;
    this.queue.push(envelope);
    this.flush();
  }

  private flush(): void {
    const live = [...this.listeners].filter((l) => !l.destroyed && l.writable);
    if (live.length === 0) return;
    for (const envelope of this.queue.splice(0)) {
      const data = JSON.stringify({ envelope, account: this.opts.account });
      for (const l of live) l.write(`event:receive\ndata:${data}\n\n`);
      this.delivered++;
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "GET" && url.pathname === "/api/v1/check") return void res.writeHead(200).end();
    if (req.method === "GET" && url.pathname === "/api/v1/events") {
      const account = url.searchParams.get("account");
      if (account !== null && account !== this.opts.account)
        return void res.writeHead(400).end(`Unknown account: ${account}`);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(":\n\n");
      this.listeners.add(res);
      res.on("close", () => this.listeners.delete(res));
      this.flush();
      return;
    }
    if (req.method === "POST" && url.pathname === "/api/v1/rpc") return this.rpc(req, res);
    res.writeHead(404).end();
  }

  private async rpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let id: unknown = null;
    const answer = (body: Record<string, unknown>) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id, ...body }));
    try {
      let call: { jsonrpc?: unknown; method?: unknown; params?: unknown; id?: unknown };
      try {
        call = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        throw new RpcError(RPC.parse, "Parse error");
      }
      id = call?.id ?? null;
      if (call?.jsonrpc !== "2.0" || typeof call.method !== "string" || call.id === undefined)
        throw new RpcError(RPC.request, "Invalid Request");
      const p = call.params;
      if (typeof p !== "object" || p === null || Array.isArray(p))
        throw new RpcError(RPC.params, "params must be an object");
      answer({ result: this.call(call.method, p as Record<string, unknown>) });
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      answer({ error: { code: err.code, message: err.message } });
    }
  }

  private call(method: string, p: Record<string, unknown>): unknown {
    if (p.account !== this.opts.account)
      throw new RpcError(RPC.params, `Method requires valid account parameter (got ${String(p.account)})`);
    const to = (): string => {
      const r = p.recipient;
      const g = p.groupId;
      if ((r === undefined) === (g === undefined))
        throw new RpcError(RPC.params, "exactly one of recipient and groupId is required");
      if (typeof g === "string") return this.group(g);
      const list = Array.isArray(r) ? r : [r];
      if (list.length !== 1 || typeof list[0] !== "string")
        throw new RpcError(RPC.params, "recipient must be one number or uuid");
      if (list[0] === this.opts.account) return list[0];
      return this.user(list[0]).number;
    };
    switch (method) {
      case "send": {
        const target = to();
        const message = p.message ?? "";
        if (typeof message !== "string") throw new RpcError(RPC.params, "message must be a string");
        const attachments = (Array.isArray(p.attachments) ? p.attachments : []).map(dataUri);
        if (message === "" && attachments.length === 0)
          throw new RpcError(RPC.params, "No message or attachments given");
        const timestamp = this.now();
        this.sent.push({ to: target, message, attachments, timestamp });
        return { timestamp, results: [{ type: "SUCCESS" }] };
      }
      case "sendReaction": {
        const target = to();
        if (typeof p.emoji !== "string" || p.emoji === "")
          throw new RpcError(RPC.params, "emoji is required");
        if (typeof p.targetAuthor !== "string") throw new RpcError(RPC.params, "targetAuthor is required");
        if (typeof p.targetTimestamp !== "number")
          throw new RpcError(RPC.params, "targetTimestamp is required");
        this.reactions.push({
          to: target,
          emoji: p.emoji,
          targetAuthor: p.targetAuthor,
          targetTimestamp: p.targetTimestamp,
        });
        return { timestamp: this.now(), results: [{ type: "SUCCESS" }] };
      }
      case "sendTyping":
        this.typing.push(to());
        return {};
      case "getAttachment": {
        to();
        const f = typeof p.id === "string" ? this.files.get(p.id) : undefined;
        if (!f) throw new RpcError(RPC.params, `Attachment not found: ${String(p.id)}`);
        return { data: f.bytes.toString("base64") };
      }
      default:
        throw new RpcError(RPC.method, `Method not implemented: ${method}`);
    }
  }
}

/** signal-cli's attachment form `data:<mime>;filename=<name>;base64,<data>` (paths are not served here). */
function dataUri(v: unknown): SignalFile {
  const m =
    typeof v === "string" ? /^data:([\w.+-]+\/[\w.+-]+)(?:;filename=([^;,]*))?;base64,(.*)$/s.exec(v) : null;
  if (!m)
    throw new RpcError(RPC.params, "attachments must be data: URIs (data:<mime>;filename=<name>;base64,…)");
  const bytes = Buffer.from(m[3] ?? "", "base64");
  if (bytes.length === 0) throw new RpcError(RPC.params, "an attachment is empty");
  return { contentType: m[1] ?? "", bytes, ...(m[2] ? { filename: m[2] } : {}) };
}
