// A fake Matrix homeserver (client-server API), enough for matrix-js-sdk's client to sync and send,
// and as strict as Synapse where the bot's code depends on it: the access token (401
// M_UNKNOWN_TOKEN), membership of the room (403 M_FORBIDDEN), `PUT .../send/{type}/{txnId}`
// idempotent per token and transaction id (a repeat returns the first event id, stores nothing),
// event size (65,536 bytes, 413 M_TOO_LARGE), and /sync long-polls from `since`, so a client that
// resumes from its last token gets exactly what happened after it. Media: POST
// /_matrix/media/v3/upload (a Content-Type is required; 50 MB at most, 413 M_TOO_LARGE) gives an
// mxc:// URI, served back only with the token by the authenticated
// GET /_matrix/client/v1/media/download/{server}/{id} (404 M_NOT_FOUND for an unknown one).
// Redactions (PUT .../redact/{event}/{txnId}) of the bot's own events only (403 M_FORBIDDEN).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface MxEvent {
  event_id: string;
  room_id: string;
  sender: string;
  type: string;
  content: Record<string, unknown>;
  origin_server_ts: number;
  state_key?: string;
  /** Position in the server's stream (not sent). */
  pos: number;
}

export interface FakeMatrixOptions {
  botUserId: string;
  token: string;
  /** Rooms by id: their members (the bot among them). */
  rooms: Record<string, string[]>;
}

interface Waiter {
  since: number;
  res: ServerResponse;
  timer: NodeJS.Timeout;
}

export class FakeMatrix {
  readonly events: MxEvent[] = [];
  /** Every request path the client made, for tests. */
  readonly paths: string[] = [];
  private readonly txns = new Map<string, string>();
  /** Uploaded media by mxc:// URI. */
  readonly media = new Map<string, { bytes: Buffer; mime: string; filename?: string }>();
  private readonly waiters = new Set<Waiter>();
  private pos = 0;

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    private readonly opts: FakeMatrixOptions,
  ) {
    for (const [room, members] of Object.entries(opts.rooms)) {
      this.append(room, members[0] ?? opts.botUserId, "m.room.create", { creator: members[0] }, "");
      for (const m of members) this.append(room, m, "m.room.member", { membership: "join" }, m);
    }
  }

  static async start(opts: FakeMatrixOptions): Promise<FakeMatrix> {
    let fake: FakeMatrix | undefined;
    const server = createServer((req, res) => {
      fake?.route(req, res).catch(() => {
        if (!res.headersSent) json(res, 500, { errcode: "M_UNKNOWN", error: "internal error" });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake = new FakeMatrix(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, opts);
    return fake;
  }

  /** A user writes in a room; its event id. */
  userSends(room: string, sender: string, body: string, extra: Record<string, unknown> = {}): string {
    return this.append(room, sender, "m.room.message", { msgtype: "m.text", body, ...extra }).event_id;
  }

  /** Media put in the repository as a user's client does; its mxc:// URI. */
  upload(bytes: Buffer, mime: string, filename?: string): string {
    const uri = `mxc://fake.test/${randomUUID().replace(/-/g, "")}`;
    this.media.set(uri, { bytes, mime, ...(filename ? { filename } : {}) });
    return uri;
  }

  /** A user sends media (m.image, m.file, m.audio): uploaded, then the event; its event id. */
  userSendsMedia(
    room: string,
    sender: string,
    m: {
      msgtype: "m.image" | "m.file" | "m.audio";
      bytes: Buffer;
      mime: string;
      filename: string;
      voice?: boolean;
    },
  ): string {
    const url = this.upload(m.bytes, m.mime, m.filename);
    return this.append(room, sender, "m.room.message", {
      msgtype: m.msgtype,
      body: m.filename,
      url,
      info: { mimetype: m.mime, size: m.bytes.length },
      ...(m.voice ? { "org.matrix.msc1767.audio": { duration: 1000 }, "org.matrix.msc3245.voice": {} } : {}),
    }).event_id;
  }

  /** The same event again in a later sync (a server replaying it after a hiccup). */
  redeliver(eventId: string): void {
    const e = this.events.find((x) => x.event_id === eventId);
    if (!e) throw new Error(`no event ${eventId}`);
    this.events.push({ ...e, pos: ++this.pos });
    this.wake();
  }

  /** The bot's messages in a room, each with its latest text (edits applied), in order. */
  botMessages(room: string): { eventId: string; text: string; content: Record<string, unknown> }[] {
    const mine = this.events.filter(
      (e) => e.room_id === room && e.sender === this.opts.botUserId && e.type === "m.room.message",
    );
    const out: { eventId: string; text: string; content: Record<string, unknown> }[] = [];
    const redacted = new Set(
      this.events.filter((e) => e.type === "m.room.redaction").map((e) => String(e.content.redacts)),
    );
    for (const e of mine) {
      if (redacted.has(e.event_id)) continue;
      const rel = e.content["m.relates_to"] as { rel_type?: string; event_id?: string } | undefined;
      if (rel?.rel_type === "m.replace") {
        const target = out.find((o) => o.eventId === rel.event_id);
        const nc = e.content["m.new_content"] as { body?: string } | undefined;
        if (target && typeof nc?.body === "string") target.text = nc.body;
        continue;
      }
      out.push({ eventId: e.event_id, text: String(e.content.body ?? ""), content: e.content });
    }
    return out;
  }

  close(): Promise<void> {
    for (const w of this.waiters) clearTimeout(w.timer);
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private append(
    room: string,
    sender: string,
    type: string,
    content: Record<string, unknown>,
    stateKey?: string,
  ): MxEvent {
    const e: MxEvent = {
      event_id: `$${randomUUID().replace(/-/g, "")}`,
      room_id: room,
      sender,
      type,
      content,
      origin_server_ts: Date.now(),
      ...(stateKey !== undefined ? { state_key: stateKey } : {}),
      pos: ++this.pos,
    };
    this.events.push(e);
    this.wake();
    return e;
  }

  private wake(): void {
    for (const w of [...this.waiters])
      if (this.events.some((e) => e.pos > w.since)) {
        clearTimeout(w.timer);
        this.waiters.delete(w);
        this.answerSync(w.res, w.since);
      }
  }

  private answerSync(res: ServerResponse, since: number): void {
    const join: Record<string, unknown> = {};
    for (const room of Object.keys(this.opts.rooms)) {
      const evs = this.events.filter((e) => e.room_id === room && e.pos > since);
      if (since > 0 && evs.length === 0) continue;
      const strip = ({ pos: _p, room_id: _r, ...e }: MxEvent) => e;
      join[room] = {
        timeline: {
          events: evs.filter((e) => e.state_key === undefined || since > 0).map(strip),
          limited: false,
          prev_batch: `p${since}`,
        },
        state: { events: since === 0 ? evs.filter((e) => e.state_key !== undefined).map(strip) : [] },
        ephemeral: { events: [] },
        account_data: { events: [] },
        unread_notifications: {},
      };
    }
    json(res, 200, {
      next_batch: `s${this.pos}`,
      rooms: { join, invite: {}, leave: {} },
      account_data: { events: [] },
      presence: { events: [] },
    });
  }

  private async uploaded(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const mime = req.headers["content-type"];
    if (!mime) return json(res, 400, { errcode: "M_MISSING_PARAM", error: "Content-Type is required" });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > MAX_UPLOAD) return json(res, 413, { errcode: "M_TOO_LARGE", error: "upload too large" });
      chunks.push(c as Buffer);
    }
    if (size === 0) return json(res, 400, { errcode: "M_BAD_JSON", error: "empty upload" });
    const name = url.searchParams.get("filename") ?? undefined;
    json(res, 200, { content_uri: this.upload(Buffer.concat(chunks), mime, name) });
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const p = url.pathname;
    this.paths.push(`${req.method} ${p}`);
    if (p === "/_matrix/client/versions")
      return json(res, 200, { versions: ["v1.1", "v1.5", "v1.6", "v1.9"], unstable_features: {} });
    const token =
      (req.headers.authorization ?? "").replace(/^Bearer /, "") || url.searchParams.get("access_token");
    if (!token) return json(res, 401, { errcode: "M_MISSING_TOKEN", error: "Missing access token" });
    if (token !== this.opts.token)
      return json(res, 401, {
        errcode: "M_UNKNOWN_TOKEN",
        error: "Invalid access token passed.",
        soft_logout: false,
      });
    if (p === "/_matrix/media/v3/upload" && req.method === "POST") return this.uploaded(req, res, url);
    const dl = /^\/_matrix\/client\/v1\/media\/download\/([^/]+)\/([^/]+)$/.exec(p);
    if (dl && req.method === "GET") {
      const m = this.media.get(`mxc://${decodeURIComponent(dl[1] ?? "")}/${decodeURIComponent(dl[2] ?? "")}`);
      if (!m) return json(res, 404, { errcode: "M_NOT_FOUND", error: "Not found" });
      res.writeHead(200, { "content-type": m.mime, "content-length": m.bytes.length });
      return void res.end(m.bytes);
    }
    const body = await readJson(req);
    const me = this.opts.botUserId;
    if (p === "/_matrix/client/v3/sync") {
      const since = Number((url.searchParams.get("since") ?? "s0").slice(1)) || 0;
      const timeout = Math.min(Number(url.searchParams.get("timeout") ?? 0), 30_000);
      if (since === 0 || this.events.some((e) => e.pos > since) || timeout === 0)
        return this.answerSync(res, since);
      const w: Waiter = {
        since,
        res,
        timer: setTimeout(() => {
          this.waiters.delete(w);
          this.answerSync(res, since);
        }, timeout),
      };
      this.waiters.add(w);
      res.on("close", () => {
        clearTimeout(w.timer);
        this.waiters.delete(w);
      });
      return;
    }
    if (p.startsWith("/_matrix/client/v3/pushrules"))
      return json(res, 200, { global: { override: [], content: [], room: [], sender: [], underride: [] } });
    if (p === "/_matrix/client/v3/capabilities") return json(res, 200, { capabilities: {} });
    if (/^\/_matrix\/client\/v3\/user\/[^/]+\/filter$/.test(p) && req.method === "POST")
      return json(res, 200, { filter_id: "1" });
    if (/^\/_matrix\/client\/v3\/user\/[^/]+\/filter\/1$/.test(p)) return json(res, 200, {});
    const room = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/(.+)$/.exec(p);
    if (room) {
      const roomId = decodeURIComponent(room[1] ?? "");
      const members = this.opts.rooms[roomId];
      if (!members?.includes(me))
        return json(res, 403, { errcode: "M_FORBIDDEN", error: `User ${me} not in room ${roomId}` });
      const rest = room[2] ?? "";
      if (rest === "joined_members")
        return json(res, 200, {
          joined: Object.fromEntries(members.map((m) => [m, { display_name: m.slice(1).split(":")[0] }])),
        });
      if (rest.startsWith("typing/")) return json(res, 200, {});
      const redact = /^redact\/([^/]+)\/([^/]+)$/.exec(rest);
      if (redact && req.method === "PUT") {
        const txn = `${token}/${decodeURIComponent(redact[2] ?? "")}`;
        const seen = this.txns.get(txn);
        if (seen) return json(res, 200, { event_id: seen });
        const target = this.events.find((e) => e.event_id === decodeURIComponent(redact[1] ?? ""));
        if (!target || target.room_id !== roomId)
          return json(res, 404, { errcode: "M_NOT_FOUND", error: "Event not found" });
        // The bot has no power to redact others' events.
        if (target.sender !== me)
          return json(res, 403, {
            errcode: "M_FORBIDDEN",
            error: "You don't have permission to redact events",
          });
        const e = this.append(roomId, me, "m.room.redaction", { ...body, redacts: target.event_id });
        this.txns.set(txn, e.event_id);
        return json(res, 200, { event_id: e.event_id });
      }
      const send = /^send\/([^/]+)\/([^/]+)$/.exec(rest);
      if (send && req.method === "PUT") {
        const txn = `${token}/${decodeURIComponent(send[2] ?? "")}`;
        const seen = this.txns.get(txn);
        if (seen) return json(res, 200, { event_id: seen });
        if (Buffer.byteLength(JSON.stringify(body)) > 65_536)
          return json(res, 413, { errcode: "M_TOO_LARGE", error: "event too large" });
        const e = this.append(roomId, me, decodeURIComponent(send[1] ?? ""), body);
        this.txns.set(txn, e.event_id);
        return json(res, 200, { event_id: e.event_id });
      }
    }
    json(res, 404, { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" });
  }
}

const MAX_UPLOAD = 50 * 1024 * 1024;

function json(res: ServerResponse, status: number, value: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  if (!raw) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
