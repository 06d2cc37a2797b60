// Asking for access to the web chat (SPEC G1): a visitor without a token picks a name and gets a
// pairing code from the runner, the owner approves it with `iris pairing approve CODE`, and the
// visitor's page then claims the approval once: the user is made with their own token (shown
// once) and logged in. The pending request is known by a random secret in an HttpOnly cookie;
// the name is the one the owner approved (kept by the runner), never one sent at claim time.
// A name that already has a user cannot be asked for.
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { PairingPort } from "../../adapter.js";
import { NAME, type WebchatAuth } from "./auth.js";
import type { WebchatUsers } from "./users.js";

export const PAIR_COOKIE = "iris_webchat_pair";
const PLATFORM = "webchat";

export type PairReply = { status: number; body: unknown; cookies?: string[] };

export class WebchatPairing {
  constructor(
    private readonly port: PairingPort,
    private readonly users: Pick<WebchatUsers, "has" | "issue">,
  ) {}

  /** POST /pair {name}: a code for the owner to approve. */
  async request(name: string, req: IncomingMessage): Promise<PairReply> {
    if (!NAME.test(name))
      return { status: 400, body: { error: "name: 1–32 letters, digits, '_', '.' or '-'" } };
    if (await this.users.has(name))
      return { status: 409, body: { error: `${name} is taken: ask the owner for your own token` } };
    // One pending request per browser: asking again with its cookie gets the same code.
    const secret = secretOf(req) ?? randomBytes(24).toString("base64url");
    const issued = await this.port.request(PLATFORM, idOf(secret), name);
    if (!issued.ok) return { status: 429, body: { error: `no pairing code now: ${issued.reason}` } };
    const maxAge = Math.max(1, Math.round((issued.expiresAt - Date.now()) / 1000));
    return {
      status: 202,
      body: { code: issued.code, name },
      cookies: [`${PAIR_COOKIE}=${secret}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAge}`],
    };
  }

  /** POST /pair/claim: once approved, the user with a fresh token of their own, logged in. */
  async claim(req: IncomingMessage, auth: WebchatAuth): Promise<PairReply> {
    const secret = secretOf(req);
    if (!secret) return { status: 401, body: { error: "no pairing request from this browser" } };
    const id = idOf(secret);
    const name = await this.port.approvedName(PLATFORM, id);
    if (!name) return { status: 202, body: { waiting: true } };
    await this.port.forget(PLATFORM, id);
    const clear = `${PAIR_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
    if (await this.users.has(name))
      return { status: 409, body: { error: `${name} was taken meanwhile: ask again` }, cookies: [clear] };
    const { token } = await this.users.issue(name);
    const login = await auth.login(token, req.socket.remoteAddress ?? "unknown");
    if (!login.ok) return { status: login.status, body: { error: login.error }, cookies: [clear] };
    return { status: 200, body: { name, token }, cookies: [clear, login.cookie] };
  }
}

function secretOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, v] = part.trim().split("=", 2);
    if (k === PAIR_COOKIE && v && /^[\w-]{32}$/.test(v)) return v;
  }
  return undefined;
}

const idOf = (secret: string) => `pair:${createHash("sha256").update(secret).digest("hex").slice(0, 32)}`;
