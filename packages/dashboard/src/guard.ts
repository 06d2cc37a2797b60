// Every request passes here first: a foreign Host or Origin is refused (403) before anything
// else, then a request without a login session gets 401 (the login page and its POST excepted),
// and a POST without the session's CSRF token (form field `_csrf` or header X-CSRF-Token) 403.
import type { MiddlewareHandler } from "hono";
import { same } from "./auth.js";
import type { DashboardDeps, DashboardEnv } from "./deps.js";
import { loginPage } from "./layout.js";

const OPEN = new Set(["/login"]);

export function guard(deps: DashboardDeps): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    const host = c.req.header("host") ?? "";
    if (!deps.hosts.has(host.toLowerCase()))
      return c.text(`refused: Host ${host || "(none)"} is not this dashboard`, 403);
    const origin = c.req.header("origin");
    if (origin !== undefined && !deps.hosts.has(originHost(origin)))
      return c.text("refused: a request from another origin", 403);
    if (c.req.header("sec-fetch-site") === "cross-site") return c.text("refused: a cross-site request", 403);
    c.header("X-Frame-Options", "DENY");
    c.header(
      "Content-Security-Policy",
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
    );
    // "same-origin", not "no-referrer": with no referrer a form POST carries `Origin: null`.
    c.header("Referrer-Policy", "same-origin");
    c.header("Cache-Control", "no-store");
    if (OPEN.has(c.req.path)) return next();
    const session = deps.auth.session(c.req.header("cookie"));
    if (!session) {
      if (c.req.method === "GET" && c.req.header("hx-request") === undefined && c.req.path !== "/favicon.ico")
        return c.html(loginPage("Log in first.").value, 401);
      return c.text("log in first", 401);
    }
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      let sent = c.req.header("x-csrf-token");
      if (sent === undefined) {
        const type = c.req.header("content-type") ?? "";
        if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
          const body = await c.req.parseBody();
          sent = typeof body._csrf === "string" ? body._csrf : undefined;
        }
      }
      if (sent === undefined || !same(sent, session.csrf))
        return c.text("refused: missing or wrong CSRF token", 403);
    }
    c.set("csrf", session.csrf);
    return next();
  };
}

function originHost(origin: string): string {
  try {
    const u = new URL(origin);
    return u.protocol === "http:" ? u.host.toLowerCase() : "";
  } catch {
    return "";
  }
}
