// The dashboard end to end: a profile filled by real `iris -p` runs and a gateway run over the
// fake LLM server, `iris dashboard` started from the built CLI, every page driven in headless
// Chromium (screenshots in test-artifacts/, no console errors), and the guard probed over HTTP.
/// <reference lib="dom" />
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browsing, logIn } from "./browse.js";
import { skipWithoutChromium } from "./chromium.js";
import { runIris, type Started, startIris } from "./cli.js";

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), "..", "test-artifacts");
const KOREAN = "서울의 겨울 날씨는 정말 춥습니다";
const WAIT = { timeout: 60_000 };

const skip = skipWithoutChromium();

describe.skipIf(skip)(
  "iris dashboard (Chromium)",
  () => {
    let fake: FakeLlm;
    let dir: TempDir;
    let home: string;
    let work: string;
    let env: Record<string, string>;
    let dashboard: Started;
    let url = "";
    let token = "";
    let browsing: Browsing;
    const openPage = (path: string) => browsing.openPage(path);
    const shot = (page: Page, name: string) =>
      page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

    beforeAll(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      fake = await startFakeLlm();
      dir = tempDir("iris-dashboard-");
      home = dir.path;
      work = join(home, "work");
      mkdirSync(work, { recursive: true });
      writeFileSync(
        join(home, "config.yaml"),
        [
          "model: {provider: openai, name: gpt-4o}",
          `providers: {openai: {base_url: "${fake.baseUrl}", api_mode: chat_completions}}`,
          "approvals: {timeout_seconds: 600}",
          "logging: {level: debug}",
          "dashboard: {port: 0}",
          "gateway:",
          "  dashboard: true",
          "  platforms:",
          "    webchat: {port: 0}",
          "",
        ].join("\n"),
      );
      writeFileSync(join(home, ".env"), "EXAMPLE_SECRET=do-not-show-this-value\n", { mode: 0o600 });
      env = { IRIS_HOME: home };
      const usage = { input: 12_000, cacheRead: 4_000, output: 300 };
      for (const [prompt, reply] of [
        ["hello there", "hi!"],
        [`remember: ${KOREAN}`, "네, 기억하겠습니다."],
        ["what is 2+2", "4"],
      ] as const) {
        fake.enqueue({ text: reply, usage });
        const r = await runIris(["-p", prompt], env, work);
        expect(r.stderr).not.toMatch(/Error:|internal error/);
        expect(r.code).toBe(0);
      }
      // A gateway that ran and was stopped: its platform must show as stopped.
      const gw = startIris(["gateway", "run"], env, work);
      // gateway.dashboard: the dashboard runs inside the gateway's process.
      const inside = (await gw.waitForStderr(/iris dashboard: listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
      await gw.waitForStderr(/iris gateway: running/);
      expect((await fetch(`${inside}/`)).status).toBe(401);
      expect((await fetch(`${inside}/login`)).status).toBe(200);
      gw.child.kill("SIGTERM");
      expect(await gw.exited).toBe(0);

      const cron = await runIris(
        ["cron", "add", "every 2h", "summarise the day", "--to", "webchat:alice"],
        env,
        work,
      );
      expect(cron.code, cron.stderr).toBe(0);
      // The API server writes one log line per request: the log page has lines to tail.
      const api = startIris(["serve", "--port", "0"], env, work);
      const apiUrl = (await api.waitForStdout(/listening on (http:\/\/\S+)\/v1/))[1]!;
      expect((await fetch(`${apiUrl}/v1/models`)).status).toBe(200);
      api.child.kill("SIGTERM");
      expect(await api.exited).toBe(0);

      dashboard = startIris(["dashboard", "--port", "0"], env, work);
      url = (await dashboard.waitForStderr(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
      const tokenFile = join(home, "dashboard.token");
      expect(existsSync(tokenFile)).toBe(true);
      token = readFileSync(tokenFile, "utf8").trim();
      expect(dashboard.stderr()).not.toContain(token);
      browsing = await logIn(url, token);
    }, 180_000);

    afterAll(async () => {
      await browsing?.close();
      dashboard?.child.kill("SIGTERM");
      await dashboard?.exited;
      await fake?.close();
      dir?.cleanup();
    });

    it("overview: version, the stopped platform as stopped, costs", async () => {
      const page = await openPage("/");
      await page.waitForSelector("tr[data-platform='webchat'][data-state='stopped']", WAIT);
      expect(await page.textContent("main")).toContain("0.1.0");
      expect(Number(await page.getAttribute("[data-cost-today]", "data-cost-today"))).toBeGreaterThan(0);
      await shot(page, "overview");
    });

    it("usage: the chart's total equals iris usage's total", async () => {
      const page = await openPage("/usage?days=7&split=model");
      await page.waitForSelector("#chart-tokens[data-chart='ready']", WAIT);
      await page.waitForSelector("#chart-cost[data-chart='ready']", WAIT);
      await page.waitForSelector("#chart-split[data-chart='ready']", WAIT);
      const cli = await runIris(["usage"], env, work);
      const total = /^total \(3 sessions\)\s+(\d+)\s+([\d,]+)\s+(?:[\d.]+ %|–)\s+([\d,]+)\s+(\S+)$/m.exec(
        cli.stdout,
      );
      expect(total, cli.stdout).not.toBeNull();
      const [, calls, input, , cost] = total!;
      expect(calls).toBe("3");
      expect(await page.textContent("#total-input")).toBe(input);
      expect(await page.textContent("#total-cost")).toBe(cost);
      // The chart's own data sums to the same input tokens.
      const charted = await page.evaluate(() => {
        const d = JSON.parse(document.getElementById("data-tokens")!.textContent!) as {
          series: { values: number[] }[];
        };
        return d.series[0]!.values.reduce((a, b) => a + b, 0);
      });
      expect(charted.toLocaleString("en-US")).toBe(input);
      await shot(page, "usage");
      const csv = await page.evaluate(async () => (await fetch("/usage.csv?days=7&split=model")).text());
      expect(csv.split("\n")[0]).toBe(
        "day,model,calls,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,cost_usd",
      );
      expect(csv).toContain("openai/gpt-4o");
    });

    it("sessions: the list, a Korean search, a conversation", async () => {
      const page = await openPage("/sessions");
      await page.waitForSelector("#sessions[data-results='3']", WAIT);
      await page.fill("input[type=search]", "겨울 날씨");
      await page.waitForSelector("#sessions[data-results='1']", WAIT);
      expect(await page.textContent("#sessions")).toContain("겨울 날씨");
      await shot(page, "sessions-search");
      await Promise.all([page.waitForURL(/\/sessions\/[0-9a-f-]+$/), page.click("#sessions a")]);
      await page.waitForSelector(".node.user", WAIT);
      expect(await page.textContent("main")).toContain("네, 기억하겠습니다.");
      await shot(page, "session");
      await page.fill("input[name=title]", "날씨 노트");
      await Promise.all([page.waitForLoadState("load"), page.click("button:has-text('Rename')")]);
      await page.waitForSelector("h1:has-text('날씨 노트')", WAIT);
      const path = new URL(page.url()).pathname;
      const exported = await page.evaluate(
        async (p) => (await fetch(`${p}/export?format=sharegpt`)).text(),
        path,
      );
      const shared = JSON.parse(exported) as { title: string; conversations: { from: string }[] };
      expect(shared.title).toBe("날씨 노트");
      expect(shared.conversations.map((c) => c.from).filter((f) => f !== "system")).toEqual(["human", "gpt"]);
      const jsonl = await page.evaluate(async (p) => (await fetch(`${p}/export?format=jsonl`)).text(), path);
      expect(
        jsonl
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l).role),
      ).toEqual(["user", "assistant"]);
      await page.check("input[name=confirm]");
      await Promise.all([page.waitForURL(`${url}/sessions`), page.click("button:has-text('Delete')")]);
      await page.waitForSelector("#sessions[data-results='2']", WAIT);
    });

    it("approvals: a waiting iris -p runs once the page allows it", async () => {
      mkdirSync(join(work, "scratch-dir"), { recursive: true });
      fake.enqueue(
        { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf scratch-dir" } }] },
        { text: "cleaned up" },
      );
      const asking = startIris(["-p", "clean up the scratch folder"], env, work);
      const page = await openPage("/approvals");
      await page.waitForSelector("[data-ask][data-kind='approval']", WAIT);
      expect(await page.textContent("[data-ask]")).toContain("rm -rf scratch-dir");
      await shot(page, "approvals");
      await page.click("[data-ask] button[value='once']");
      await page.waitForSelector("[data-answered]", WAIT);
      expect(await asking.exited).toBe(0);
      expect(asking.stdout()).toContain("cleaned up");
      expect(existsSync(join(work, "scratch-dir"))).toBe(false);
    });

    it("config: a typo is refused naming its key; a stale base hash is refused", async () => {
      const a = await openPage("/config");
      const b = await openPage("/config");
      expect(await a.textContent("#env-keys")).toContain("EXAMPLE_SECRET");
      expect(await a.content()).not.toContain("do-not-show-this-value");
      const text = await a.inputValue("textarea[name=text]");
      await a.fill("textarea[name=text]", `${text}agent:\n  max_roundz: 3\n`);
      await Promise.all([a.waitForLoadState("load"), a.click("#raw-config button")]);
      await a.waitForSelector("#config-notice", WAIT);
      expect(await a.textContent("#config-notice")).toMatch(/config\.yaml:\d+:\d+: agent\.max_roundz/);
      await shot(a, "config-typo");
      await a.fill("textarea[name=text]", `${text}agent:\n  max_rounds: 30\n`);
      await Promise.all([a.waitForLoadState("load"), a.click("#raw-config button")]);
      expect(await a.textContent("#config-notice")).toContain("Saved config.yaml");
      // b still holds the hash of the file before a's save.
      await b.fill("textarea[name=text]", `${text}agent:\n  max_rounds: 40\n`);
      await Promise.all([b.waitForLoadState("load"), b.click("#raw-config button")]);
      expect(await b.textContent("#config-notice")).toContain("changed since this page read it");
      const saved = readFileSync(join(home, "config.yaml"), "utf8");
      expect(saved).toContain("max_rounds: 30");
      await shot(b, "config-stale");
    });

    it("cron: pause, resume and run now from the page", async () => {
      const cron = await openPage("/cron");
      await cron.waitForSelector("tr[data-job][data-paused='no']", WAIT);
      await Promise.all([cron.waitForURL(`${url}/cron`), cron.click("tr[data-job] button[value='pause']")]);
      await cron.waitForSelector("tr[data-job][data-paused='yes']", WAIT);
      await Promise.all([cron.waitForURL(`${url}/cron`), cron.click("tr[data-job] button[value='run']")]);
      await cron.waitForSelector("tr[data-job][data-run-requested='yes']", WAIT);
      await Promise.all([cron.waitForURL(`${url}/cron`), cron.click("tr[data-job] button[value='resume']")]);
      await cron.waitForSelector("tr[data-job][data-paused='no']", WAIT);
      // The gateway's first tick takes the request: the run shows with its session, output and cost.
      fake.enqueue({ text: "the day, summarised", usage: { input: 12_000, cacheRead: 0, output: 300 } });
      const gw = startIris(["gateway", "run"], env, work);
      try {
        // A claimed slot shows at once (no session, output or cost yet): wait for its run to end.
        const finished = async () =>
          (await (await cron.$("table.cron-runs tr:nth-child(2) pre"))?.textContent()) ?? "";
        for (let i = 0; i < 300 && !(await finished()); i++) {
          await new Promise((r) => setTimeout(r, 100));
          await cron.reload();
        }
        const run = cron.locator("table.cron-runs tr").nth(1);
        expect(await run.locator("td").nth(3).textContent()).toMatch(/^\$\d/);
        expect(await run.locator("pre").textContent()).toBe("the day, summarised");
        expect(await run.locator("a").getAttribute("href")).toMatch(/^\/sessions\//);
      } finally {
        gw.child.kill("SIGTERM");
        await gw.exited;
      }
      await shot(cron, "cron");
      // Usage by cron job: the run's session counted under its job, nothing else there.
      const job = await cron.getAttribute("tr[data-job]", "data-job");
      const usage = await openPage("/usage?days=7&split=cron");
      const rows = usage.locator("table.usage").first().locator("tr");
      expect(await rows.count()).toBe(3);
      expect(await rows.nth(1).locator("td").nth(0).textContent()).toBe(job);
      expect(await rows.nth(1).locator("td").nth(2).textContent()).toBe("12,000");
    });

    it("logs: the live tail streams the profile's log and filters by level", async () => {
      const logs = await openPage("/logs");
      await logs.waitForSelector("#log-tail[data-stream='open']", WAIT);
      const all = Number(await logs.getAttribute("#log-tail", "data-lines"));
      expect(all).toBeGreaterThan(0);
      await logs.selectOption("select[name=level]", "error");
      await logs.waitForFunction(
        (n) => {
          const el = document.getElementById("log-tail")!;
          return el.dataset.stream === "open" && Number(el.dataset.lines) < n;
        },
        all,
        WAIT,
      );
      await shot(logs, "logs");
    });

    it("no page logged a console error", () => {
      expect(browsing.consoleErrors).toEqual([]);
    });

    describe("the guard", () => {
      const call = (
        method: string,
        path: string,
        headers: Record<string, string> = {},
        body?: string,
      ): Promise<{ status: number; text: string }> =>
        new Promise((resolve, reject) => {
          const u = new URL(url);
          const req = request(
            { host: u.hostname, port: u.port, method, path, headers: { Host: u.host, ...headers } },
            (res) => {
              let text = "";
              res.on("data", (d) => {
                text += d;
              });
              res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
            },
          );
          req.on("error", reject);
          req.end(body);
        });
      const form = { "Content-Type": "application/x-www-form-urlencoded" };
      const GETS = [
        "/",
        "/partials/overview",
        "/usage",
        "/usage.csv",
        "/sessions",
        "/partials/sessions",
        "/sessions/x",
        "/sessions/x/export",
        "/approvals",
        "/partials/approvals",
        "/cron",
        "/logs",
        "/logs/stream",
        "/config",
        "/assets/htmx.js",
        "/assets/app.js",
        "/favicon.ico",
        "/nothing-here",
      ];
      const POSTS = [
        "/sessions/x/rename",
        "/sessions/x/delete",
        "/approvals/x",
        "/config/raw",
        "/config/key",
        "/logout",
      ];

      it("without the token every route answers 401", async () => {
        for (const p of GETS) expect([p, (await call("GET", p)).status]).toEqual([p, 401]);
        for (const p of POSTS) expect([p, (await call("POST", p, form, "_csrf=x")).status]).toEqual([p, 401]);
        const wrong = await call("POST", "/login", form, "token=wrong");
        expect(wrong.status).toBe(401);
      });

      it("a foreign Host or Origin is refused; a POST without the CSRF token is refused", async () => {
        const login = await call("POST", "/login", form, `token=${encodeURIComponent(token)}`);
        expect(login.status).toBe(303);
        const cookie = await new Promise<string>((resolve) => {
          const u = new URL(url);
          request(
            {
              host: u.hostname,
              port: u.port,
              method: "POST",
              path: "/login",
              headers: { Host: u.host, ...form },
            },
            (res) => resolve(String(res.headers["set-cookie"]).split(";")[0]!),
          ).end(`token=${encodeURIComponent(token)}`);
        });
        expect((await call("GET", "/", { Cookie: cookie })).status).toBe(200);
        expect((await call("GET", "/", { Cookie: cookie, Host: "evil.example" })).status).toBe(403);
        expect(
          (await call("GET", "/", { Cookie: cookie, Host: `attacker.test:${new URL(url).port}` })).status,
        ).toBe(403);
        expect(
          (
            await call(
              "POST",
              "/config/raw",
              { Cookie: cookie, Origin: "http://evil.example", ...form },
              "text=a&base=b",
            )
          ).status,
        ).toBe(403);
        const noCsrf = await call("POST", "/config/raw", { Cookie: cookie, ...form }, "text=a&base=b");
        expect(noCsrf.status).toBe(403);
        expect(noCsrf.text).toContain("CSRF");
        const badCsrf = await call("POST", "/sessions/x/delete", { Cookie: cookie, "X-CSRF-Token": "nope" });
        expect(badCsrf.status).toBe(403);
      });
    });
  },
  300_000,
);
