// The dashboard's routes (Hono, server-rendered; htmx swaps the partials). Every route runs
// behind guard.ts; every input is checked with zod and a bad one answers 400 naming it.
import { loadProfile, saveConfigText, setConfigKey } from "@iris/host";
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { Asset } from "./assets.js";
import type { DashboardDeps, DashboardEnv } from "./deps.js";
import { guard } from "./guard.js";
import { html } from "./html.js";
import { loginPage, page } from "./layout.js";
import { logQuery, logStream } from "./logs.js";
import { approvalsPage, askList } from "./pages/approvals.js";
import { type ConfigNotice, configPage, schemaFields } from "./pages/config.js";
import { cronPage } from "./pages/cron.js";
import { logsPage } from "./pages/logs.js";
import { mcpStates } from "./pages/mcp.js";
import { overviewCards, overviewPage } from "./pages/overview.js";
import { sessionView } from "./pages/session-view.js";
import { parseCursor, sessionRows, sessionsPage } from "./pages/sessions.js";
import { usageCsv, usagePage, usageQuery } from "./pages/usage.js";

const approvalAnswer = z.enum(["once", "session", "always", "deny"]);
const formText = (v: unknown) => (typeof v === "string" ? v : undefined);

export function createApp(deps: DashboardDeps, assets: Map<string, Asset>): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  app.use("*", guard(deps));
  const render = (
    title: string,
    path: string,
    csrf: string,
    body: Parameters<typeof page>[0]["body"],
    charts = false,
  ) => page({ title, path, csrf, body, charts }).value;

  app.get("/login", (c) => c.html(loginPage().value));
  app.post("/login", async (c) => {
    const body = await c.req.parseBody();
    const r = deps.auth.login(formText(body.token) ?? "");
    if (!r.ok) return c.html(loginPage(r.error).value, r.status);
    c.header("Set-Cookie", r.cookie);
    return c.redirect("/", 303);
  });
  app.post("/logout", (c) => {
    c.header("Set-Cookie", deps.auth.logout(c.req.header("cookie")));
    return c.redirect("/login", 303);
  });
  for (const [route, asset] of assets)
    app.get(route, (c) => {
      c.header("Cache-Control", "private, max-age=3600");
      return c.body(new Uint8Array(asset.body), 200, { "Content-Type": asset.type });
    });

  app.get("/", async (c) => c.html(render("Overview", "/", c.get("csrf"), await overviewPage(deps))));
  app.get("/partials/overview", async (c) => c.html((await overviewCards(deps)).value));
  app.get("/partials/mcp", async (c) => c.html((await mcpStates(deps)).value));

  app.get("/usage", async (c) => {
    const q = usageQuery.safeParse(c.req.query());
    if (!q.success)
      return c.text(`bad query: ${q.error.issues.map((i) => i.path.join(".")).join(", ")}`, 400);
    return c.html(render("Usage & cost", "/usage", c.get("csrf"), await usagePage(deps, q.data), true));
  });
  app.get("/usage.csv", async (c) => {
    const q = usageQuery.safeParse(c.req.query());
    if (!q.success)
      return c.text(`bad query: ${q.error.issues.map((i) => i.path.join(".")).join(", ")}`, 400);
    c.header("Content-Disposition", `attachment; filename="iris-usage-${q.data.split}-${q.data.days}d.csv"`);
    return c.body(await usageCsv(deps, q.data), 200, { "Content-Type": "text/csv; charset=utf-8" });
  });

  app.get("/sessions", async (c) => {
    const q = (c.req.query("q") ?? "").slice(0, 200);
    return c.html(
      render(
        "Sessions",
        "/sessions",
        c.get("csrf"),
        await sessionsPage(deps, q, parseCursor(c.req.query("before"))),
      ),
    );
  });
  app.get("/partials/sessions", async (c) =>
    c.html(
      (await sessionRows(deps, (c.req.query("q") ?? "").slice(0, 200), parseCursor(c.req.query("before"))))
        .value,
    ),
  );
  app.get("/sessions/:id", async (c) => {
    const s = await deps.data.findSession(c.req.param("id"));
    if (!s)
      return c.html(
        render("Not found", "/sessions", c.get("csrf"), html`<p>No session ${c.req.param("id")}.</p>`),
        404,
      );
    const after = Number.parseInt(c.req.query("after") ?? "0", 10);
    const title = s.title ?? `Session ${s.id.slice(-8)}`;
    return c.html(
      render(
        title,
        "/sessions",
        c.get("csrf"),
        await sessionView(
          deps,
          s,
          Number.isFinite(after) ? after : 0,
          c.get("csrf"),
          c.req.query("branch")?.slice(0, 100),
        ),
      ),
    );
  });
  app.get("/sessions/:id/export", async (c) => {
    const s = await deps.data.findSession(c.req.param("id"));
    if (!s) return c.text("no such session", 404);
    const format = z.enum(["jsonl", "sharegpt"]).safeParse(c.req.query("format") ?? "jsonl");
    if (!format.success) return c.text("format: jsonl or sharegpt", 400);
    c.header(
      "Content-Disposition",
      `attachment; filename="iris-${s.id.slice(-8)}${format.data === "sharegpt" ? ".sharegpt" : ""}.jsonl"`,
    );
    return c.body(await deps.data.exportSession(s, format.data), 200, {
      "Content-Type": "application/x-ndjson; charset=utf-8",
    });
  });
  app.post("/sessions/:id/rename", async (c) => {
    const s = await deps.data.findSession(c.req.param("id"));
    if (!s) return c.text("no such session", 404);
    const title = z
      .string()
      .trim()
      .min(1)
      .max(200)
      .safeParse(formText((await c.req.parseBody()).title));
    if (!title.success) return c.text("title: 1–200 characters", 400);
    await deps.data.renameSession(s.id, title.data);
    return c.redirect(`/sessions/${s.id}`, 303);
  });
  app.post("/sessions/:id/delete", async (c) => {
    const s = await deps.data.findSession(c.req.param("id"));
    if (!s) return c.text("no such session", 404);
    if (formText((await c.req.parseBody()).confirm) !== "yes")
      return c.text("confirm: tick the box to delete", 400);
    try {
      await deps.data.deleteSession(s.id);
    } catch (err) {
      return c.text(`not deleted: ${(err as Error).message}`, 409);
    }
    return c.redirect("/sessions", 303);
  });

  app.get("/approvals", async (c) =>
    c.html(render("Approvals", "/approvals", c.get("csrf"), await approvalsPage(deps))),
  );
  app.get("/partials/approvals", async (c) => c.html((await askList(deps)).value));
  app.post("/approvals/:id", async (c) => {
    const id = c.req.param("id");
    const ask = await deps.data.board.get(id);
    if (!ask) return c.text(`no request ${id}`, 404);
    const raw = formText((await c.req.parseBody()).answer) ?? "";
    let ok: boolean;
    if (ask.kind === "approval") {
      const answer = approvalAnswer.safeParse(raw);
      if (!answer.success) return c.text("answer: once, session, always or deny", 400);
      ok = await deps.data.answerApproval(id, answer.data, "dashboard");
    } else {
      if (!raw.trim() || raw.length > 10_000) return c.text("answer: 1–10,000 characters", 400);
      ok = await deps.data.answerClarify(id, raw, "dashboard");
    }
    const notice = ok
      ? html`<p class="ok" role="status" data-answered="${id}">Answered ${id}.</p>`
      : html`<p class="error" role="alert">Request ${id} was already answered or withdrawn.</p>`;
    return c.html((await askList(deps, notice)).value, ok ? 200 : 409);
  });

  app.get("/cron", async (c) =>
    c.html(render("Cron", "/cron", c.get("csrf"), await cronPage(deps, c.get("csrf")))),
  );
  app.post("/cron/:id/:action", async (c) => {
    const id = c.req.param("id");
    const cron = deps.cron;
    if (!cron) return c.text("the cron jobs are not available in this dashboard", 404);
    if (!(await cron.list()).some((j) => j.id === id)) return c.text(`no cron job ${id}`, 404);
    const action = z.enum(["pause", "resume", "run"]).safeParse(c.req.param("action"));
    if (!action.success) return c.text("action: pause, resume or run", 400);
    if (action.data === "run") await cron.requestRun(id);
    else await cron.setPaused(id, action.data === "pause");
    return c.redirect("/cron", 303);
  });

  const logFile = `${deps.profile.home.paths.logs}/iris.log`;
  app.get("/logs", (c) => c.html(render("Logs", "/logs", c.get("csrf"), logsPage(logFile))));
  app.get("/logs/stream", (c) => {
    const q = logQuery.safeParse(c.req.query());
    if (!q.success)
      return c.text(`bad filter: ${q.error.issues.map((i) => i.path.join(".")).join(", ")}`, 400);
    return logStream(c, logFile, q.data);
  });

  // A refused save is answered 200 with the reason on the page (the form is shown again with the
  // text as typed): it is the page's answer to its own form, not a failed load.
  const configAnswer = (c: Context<DashboardEnv>, notice: ConfigNotice) =>
    c.html(render("Config", "/config", c.get("csrf"), configPage(deps, c.get("csrf"), notice)));
  app.get("/config", (c) =>
    c.html(render("Config", "/config", c.get("csrf"), configPage(deps, c.get("csrf")))),
  );
  app.post("/config/raw", async (c) => {
    const body = await c.req.parseBody();
    const text = formText(body.text);
    const base = formText(body.base);
    if (text === undefined || base === undefined) return c.text("text and base are required", 400);
    const r = saveConfigText(deps.profile.home.paths.config, text.replace(/\r\n/g, "\n"), base);
    if (r.ok) {
      reloadProfile(deps);
      return configAnswer(c, { kind: "saved", what: "config.yaml" });
    }
    return r.stale
      ? configAnswer(c, { kind: "stale", text })
      : configAnswer(c, { kind: "errors", errors: r.errors, text });
  });
  app.post("/config/key", async (c) => {
    const body = await c.req.parseBody();
    const key = formText(body.key);
    const value = formText(body.value);
    const base = formText(body.base);
    if (!key || value === undefined || base === undefined)
      return c.text("key, value and base are required", 400);
    // A string field's text is a string (JSON quoting is YAML), whatever it looks like.
    const field = schemaFields().find((f) => f.key === key);
    const valueYaml = field?.type === "string" || field?.type === "enum" ? JSON.stringify(value) : value;
    const r = setConfigKey(deps.profile.home.paths.config, key, valueYaml, base);
    if (r.ok) {
      reloadProfile(deps);
      return configAnswer(c, { kind: "saved", what: key });
    }
    return r.stale
      ? configAnswer(c, { kind: "stale" })
      : configAnswer(c, { kind: "errors", errors: r.errors });
  });

  app.notFound((c) => c.text("not found", 404));
  return app;
}

/** A saved config shows at once (budgets, MCP servers); a file that does not load keeps the old view. */
function reloadProfile(deps: DashboardDeps): void {
  const r = loadProfile({ env: deps.env, profile: deps.profile.home.profile, create: false });
  if (r.ok) deps.profile = r;
}
