// The web chat's login (issue 19 §6): one token per profile, printed at start (never put in a
// URL, so it never lands in browser history or server logs). Logging in with it and a display
// name sets an HttpOnly, SameSite=Strict cookie signed with the token; the page, its event
// stream and its sends all require that cookie. Wrong tokens are rate-limited.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";

export const COOKIE = "iris_webchat";
/** Display names: letters, digits, `_ . -`; they are also the user's chat id. */
export const NAME = /^[\p{L}\p{N}_.-]{1,32}$/u;
const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 60_000;

/** The profile's token file, created (mode 600) on first use; without a file, a fresh token. */
export function loadToken(file: string | undefined): string {
  if (file) {
    try {
      const found = readFileSync(file, "utf8").trim();
      if (found.length >= 32) return found;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
  const token = randomBytes(24).toString("base64url");
  if (file) {
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    chmodSync(file, 0o600); // the mode above applies only to a file it creates
  }
  return token;
}

export type LoginResult =
  | { ok: true; cookie: string }
  | { ok: false; status: 400 | 401 | 429; error: string };

export class WebchatAuth {
  private failures: number[] = [];

  constructor(
    readonly token: string,
    private readonly now: () => number = Date.now,
  ) {}

  login(token: string, name: string): LoginResult {
    const t = this.now();
    this.failures = this.failures.filter((at) => at > t - FAILURE_WINDOW_MS);
    if (this.failures.length >= MAX_FAILURES)
      return { ok: false, status: 429, error: "too many wrong tokens: wait a minute" };
    if (!same(token, this.token)) {
      this.failures.push(t);
      return { ok: false, status: 401, error: "wrong token" };
    }
    if (!NAME.test(name))
      return { ok: false, status: 400, error: "name: 1–32 letters, digits, '_', '.' or '-'" };
    const value = `${encodeURIComponent(name)}.${this.sign(name)}`;
    return {
      ok: true,
      cookie: `${COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${30 * 24 * 3600}`,
    };
  }

  /** The logged-in user's name, from the request's Cookie header; undefined when not logged in. */
  user(cookieHeader: string | undefined): string | undefined {
    for (const part of (cookieHeader ?? "").split(";")) {
      const [k, v] = part.trim().split("=", 2);
      if (k !== COOKIE || !v) continue;
      const dot = v.lastIndexOf(".");
      let name: string;
      try {
        name = decodeURIComponent(v.slice(0, dot));
      } catch {
        return undefined;
      }
      if (dot > 0 && NAME.test(name) && same(v.slice(dot + 1), this.sign(name))) return name;
    }
    return undefined;
  }

  private sign(name: string): string {
    return createHmac("sha256", this.token).update(`webchat-user:${name}`).digest("base64url");
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
