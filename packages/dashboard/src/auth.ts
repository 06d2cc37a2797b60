// The dashboard's guard (issue "security the peers settled on"): a token kept in the profile's
// dashboard.token (mode 600), typed into the login page and never put in a URL; a login gives an
// HttpOnly SameSite=Strict cookie naming a server-side session that holds its CSRF token; every
// request must name this server in Host (DNS rebinding) and, when the browser sends one, Origin.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";

export const COOKIE = "iris_dashboard";
const SESSION_TTL_MS = 7 * 24 * 3600_000;
const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 60_000;

/** The token in `file`, made (mode 600) on first use. */
export function loadOrCreateToken(file: string): string {
  try {
    const found = readFileSync(file, "utf8").trim();
    if (found.length >= 32) {
      chmodSync(file, 0o600);
      return found;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const token = randomBytes(32).toString("base64url");
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // the mode above applies only to a file it creates
  return token;
}

interface LoginSession {
  csrf: string;
  expiresAt: number;
}

export type LoginResult = { ok: true; cookie: string } | { ok: false; status: 401 | 429; error: string };

export class DashboardAuth {
  private readonly sessions = new Map<string, LoginSession>();
  private failures: number[] = [];

  constructor(
    private readonly token: string,
    private readonly now: () => number = Date.now,
  ) {}

  login(token: string): LoginResult {
    const t = this.now();
    this.failures = this.failures.filter((at) => at > t - FAILURE_WINDOW_MS);
    if (this.failures.length >= MAX_FAILURES)
      return { ok: false, status: 429, error: "too many wrong tokens: wait a minute" };
    if (!same(token.trim(), this.token)) {
      this.failures.push(t);
      return { ok: false, status: 401, error: "wrong token" };
    }
    const id = randomBytes(32).toString("base64url");
    this.sessions.set(digest(id), {
      csrf: randomBytes(24).toString("base64url"),
      expiresAt: t + SESSION_TTL_MS,
    });
    return {
      ok: true,
      cookie: `${COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}`,
    };
  }

  logout(cookieHeader: string | undefined): string {
    const id = cookieValue(cookieHeader);
    if (id) this.sessions.delete(digest(id));
    return `${COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
  }

  /** The logged-in session of the request's cookie, if any. */
  session(cookieHeader: string | undefined): LoginSession | undefined {
    const id = cookieValue(cookieHeader);
    if (!id) return undefined;
    const s = this.sessions.get(digest(id));
    if (!s) return undefined;
    if (s.expiresAt <= this.now()) {
      this.sessions.delete(digest(id));
      return undefined;
    }
    return s;
  }
}

function cookieValue(header: string | undefined): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** Sessions are kept by the digest of their id: a heap dump shows no usable cookie. */
const digest = (id: string) => createHash("sha256").update(id).digest("base64url");

export function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The Host values this server answers to: loopback names with its port, and the address it was
 * bound to. Anything else is a page from another site reaching us through a rebound DNS name.
 */
export function allowedHosts(boundHost: string, port: number): Set<string> {
  const names = new Set(["127.0.0.1", "localhost", "[::1]"]);
  if (boundHost !== "0.0.0.0" && boundHost !== "::")
    names.add(boundHost.includes(":") ? `[${boundHost}]` : boundHost);
  return new Set([...names].map((n) => `${n}:${port}`));
}
