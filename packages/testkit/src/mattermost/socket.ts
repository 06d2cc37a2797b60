// The fake Mattermost's WebSocket (`/api/v4/websocket`), as strict as the server where the
// official WebSocketClient depends on it:
// - authentication by the upgrade's `Authorization` header (a bad token: the upgrade is a 401) or
//   by the `authentication_challenge` action (`{status: "OK", seq_reply}` or FAIL; nothing but a
//   FAIL answers other actions before that); the `hello` event comes once authenticated;
// - every event carries `seq`, counting from 0 on each connection id with no gap; a client that
//   comes back with `connection_id` and `sequence_number` gets what it missed (the events sent
//   to it or queued while it was away, up to 128) replayed with their numbers, then `hello` with
//   the same connection id; otherwise (unknown id, the queue overflowed, or the server forgot its
//   connections: a restart) a new connection id and seq 0;
// - actions `ping` (answered with pong and the server time) and `user_typing` (its channel must be
//   one of the user's); anything else is a FAIL naming the bad action.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { newId } from "./model.js";

/** Events kept per connection for a resume (the server's dead queue). */
const DEAD_QUEUE = 128;

interface Conn {
  id: string;
  userId: string;
  /** The next event's seq. */
  next: number;
  /** The newest events sent or queued, oldest first. */
  queue: { seq: number; json: string }[];
  ws?: WebSocket;
}

export interface HubDeps {
  /** The user a token belongs to, or undefined when it is not (or no longer) valid. */
  userOf(token: string): string | undefined;
  /** Whether `userId` may see channel `channelId` (user_typing's check). */
  canSee(userId: string, channelId: string): boolean;
  typed(userId: string, channelId: string, parentId: string): void;
}

export class SocketHub {
  /** Connections opened (a reconnect storm shows up here). */
  opened = 0;
  /** Resumes that continued a connection id. */
  resumes = 0;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly conns = new Map<string, Conn>();
  private deaf = false;

  constructor(private readonly deps: HubDeps) {}

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const header = req.headers.authorization ?? "";
    const token = /^(bearer|token)\s+(\S+)$/i.exec(header)?.[2];
    const userId = token !== undefined ? this.deps.userOf(token) : undefined;
    if (header !== "" && !userId) {
      socket.end(
        'HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"id":"api.context.session_expired.app_error","status_code":401}',
      );
      return;
    }
    const q = new URL(req.url ?? "/", "http://x").searchParams;
    const resume = { id: q.get("connection_id") ?? "", from: Number(q.get("sequence_number") ?? 0) };
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.opened++;
      let conn: Conn | undefined;
      const authed = (user: string) => {
        conn = this.attach(ws, user, resume);
      };
      if (userId) authed(userId);
      ws.on("message", (data) => {
        if (this.deaf) return;
        let msg: { seq?: unknown; action?: unknown; data?: Record<string, unknown> };
        try {
          msg = JSON.parse(String(data));
        } catch {
          return;
        }
        const seq = typeof msg.seq === "number" ? msg.seq : 0;
        const answer = (body: object) => ws.send(JSON.stringify({ ...body, seq_reply: seq }));
        if (msg.action === "authentication_challenge") {
          if (conn) return; // authenticated already: the server ignores it
          const user = this.deps.userOf(String(msg.data?.token ?? ""));
          if (!user) return answer(fail("api.web_socket_router.session_expired.app_error", 401));
          answer({ status: "OK" });
          return authed(user);
        }
        if (!conn) return answer(fail("api.web_socket_router.not_authenticated.app_error", 401));
        if (msg.action === "ping")
          return answer({
            status: "OK",
            data: { text: "pong", version: "10.11.0", server_time: Date.now(), node_id: "" },
          });
        if (msg.action === "user_typing") {
          const channel = String(msg.data?.channel_id ?? "");
          if (!this.deps.canSee(conn.userId, channel))
            return answer(fail("api.websocket_handler.invalid_param.app_error", 400));
          this.deps.typed(conn.userId, channel, String(msg.data?.parent_id ?? ""));
          return answer({ status: "OK" });
        }
        answer(fail("api.web_socket_router.bad_action.app_error", 400));
      });
      ws.on("close", () => {
        if (conn?.ws === ws) delete conn.ws;
      });
    });
  }

  /** The connection a socket continues (or a new one), its missed events, then `hello`. */
  private attach(ws: WebSocket, userId: string, resume: { id: string; from: number }): Conn {
    const old = this.conns.get(resume.id);
    const first = old?.queue[0]?.seq ?? old?.next ?? 0;
    if (old && old.userId === userId && resume.from >= first && resume.from <= old.next) {
      this.resumes++;
      old.ws?.terminate();
      old.ws = ws;
      for (const e of old.queue) if (e.seq >= resume.from) ws.send(e.json);
      this.send(old, "hello", helloData(old));
      return old;
    }
    const conn: Conn = { id: newId(), userId, next: 0, queue: [], ws };
    this.conns.set(conn.id, conn);
    this.send(conn, "hello", helloData(conn));
    return conn;
  }

  /** An event to every connection of `users` (live, or queued for its resume). */
  broadcast(users: Iterable<string>, event: string, data: object, broadcast: object): void {
    const to = new Set(users);
    for (const conn of [...this.conns.values()])
      if (to.has(conn.userId)) this.send(conn, event, data, broadcast);
  }

  private send(conn: Conn, event: string, data: object, broadcast: object = {}): void {
    const json = JSON.stringify({
      event,
      data,
      broadcast: {
        omit_users: null,
        user_id: event === "hello" ? conn.userId : "",
        channel_id: "",
        team_id: "",
        connection_id: "",
        omit_connection_id: "",
        ...broadcast,
      },
      seq: conn.next++,
    });
    conn.queue.push({ seq: conn.next - 1, json });
    if (conn.queue.length > DEAD_QUEUE) {
      if (!conn.ws) {
        // Too much missed: the connection cannot be resumed (its next socket starts afresh).
        this.conns.delete(conn.id);
        return;
      }
      conn.queue.shift();
    }
    if (!this.deaf) conn.ws?.send(json);
  }

  /** Cuts every socket without a close frame; the connections can be resumed. */
  drop(): void {
    for (const c of this.conns.values()) c.ws?.terminate();
  }

  /** A server restart: every socket cut and every connection forgotten (no resume). */
  forget(): void {
    this.drop();
    this.conns.clear();
  }

  /** Sockets of `userId` closed (a revoked session). */
  closeUser(userId: string): void {
    for (const c of this.conns.values()) if (c.userId === userId) c.ws?.terminate();
  }

  /** Deaf: nothing is sent or answered, protocol pings included (a dead route). */
  setDeaf(on: boolean): void {
    this.deaf = on;
    for (const client of this.wss.clients) if (on) client.pause();
    if (!on) for (const client of this.wss.clients) client.resume();
  }

  get live(): number {
    return [...this.conns.values()].filter((c) => c.ws).length;
  }

  close(): void {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }
}

function helloData(conn: Conn): object {
  return { connection_id: conn.id, server_version: "10.11.0", server_hostname: "fake-mattermost" };
}

function fail(id: string, status: number): object {
  return { status: "FAIL", error: { id, message: id, detailed_error: "", status_code: status } };
}
