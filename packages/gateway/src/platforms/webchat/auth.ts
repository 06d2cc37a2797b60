// The web chat's login (SPEC G1): every user has their own token, made by
// `iris gateway webchat add-user NAME` and shown once (never put in a URL, so it never lands in
// browser history or server logs). The user's name comes from the token, never from the form.
// Logging in sets an HttpOnly, SameSite=Strict cookie naming the user and the token it was made
// with, signed with the profile's web chat secret; a user re-issued or removed loses every login.
// Wrong tokens are rate-limited per client address, so one address's flood locks out only itself.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import type { WebchatUsers } from "./users.js";

export const COOKIE = "iris_webchat";
/** User names: letters, digits, `_ . -`; they are also the user's chat id. */
export const NAME = /^[\p{L}\p{N}_.-]{1,32}$/u;
const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 60_000;
/** Addresses whose failures are remembered at most (the oldest is forgotten first). */
const MAX_ADDRESSES = 10_000;

/** Who holds which token (the store's logins of the web chat). */
export type WebchatUserDirectory = Pick<WebchatUsers, "login" | "holds">;

/** The profile's cookie-signing secret, created (mode 600) on first use; without a file, a fresh one. */
export function loadSecret(file: string | undefined): string {
  if (file) {
    try {
      const found = readFileSync(file, "utf8").trim();
      if (found.length >= 32) return found;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
  const secret = randomBytes(32).toString("base64url");
  if (file) {
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    chmodSync(file, 0o600); // the mode above applies only to a file it creates
  }
  return secret;
}

export type LoginResult =
  | { ok: true; cookie: string; name: string }
  | { ok: false; status: 400 | 401 | 403 | 429; error: string };

export class WebchatAuth {
  /** Wrong-token times per client address (a Map keeps insertion order: oldest first). */
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly secret: string,
    private readonly users: WebchatUserDirectory,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Logs in with a user's own token. A name sent along must be the token's own: a name cannot
   * be chosen at login (a forged one is refused, not silently replaced).
   */
  async login(token: string, address: string, name?: string): Promise<LoginResult> {
    const t = this.now();
    const recent = (this.failures.get(address) ?? []).filter((at) => at > t - FAILURE_WINDOW_MS);
    if (recent.length >= MAX_FAILURES)
      return { ok: false, status: 429, error: "too many wrong tokens from this address: wait a minute" };
    const login = await this.users.login(token);
    if (!login) {
      this.failures.delete(address);
      this.failures.set(address, [...recent, t]);
      if (this.failures.size > MAX_ADDRESSES) this.forgetOldest();
      return { ok: false, status: 401, error: "wrong token" };
    }
    if (name !== undefined && name !== login.name)
      return {
        ok: false,
        status: 403,
        error: "name: a login's name comes from its token; log in with your own token",
      };
    const value = `${encodeURIComponent(login.name)}.${login.tokenId}.${this.sign(login.name, login.tokenId)}`;
    return {
      ok: true,
      name: login.name,
      cookie: `${COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${30 * 24 * 3600}`,
    };
  }

  /** The logged-in user's name, from the request's Cookie header; undefined when not logged in. */
  async user(cookieHeader: string | undefined): Promise<string | undefined> {
    for (const part of (cookieHeader ?? "").split(";")) {
      const [k, v] = part.trim().split("=", 2);
      if (k !== COOKIE || !v) continue;
      const [encoded = "", tokenId = "", mac = "", ...more] = v.split(".");
      if (more.length > 0 || !/^[0-9a-f]{16}$/.test(tokenId)) return undefined;
      let name: string;
      try {
        name = decodeURIComponent(encoded);
      } catch {
        return undefined;
      }
      if (!NAME.test(name) || !same(mac, this.sign(name, tokenId))) return undefined;
      return (await this.users.holds(name, tokenId)) ? name : undefined;
    }
    return undefined;
  }

  /** Addresses with failures remembered (bounded: tests). */
  get trackedAddresses(): number {
    return this.failures.size;
  }

  private forgetOldest(): void {
    for (const addr of this.failures.keys()) {
      if (this.failures.size <= MAX_ADDRESSES) return;
      this.failures.delete(addr);
    }
  }

  private sign(name: string, tokenId: string): string {
    return createHmac("sha256", this.secret).update(`webchat-login:${name}:${tokenId}`).digest("base64url");
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
