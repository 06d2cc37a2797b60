// `iris dashboard` on a profile whose store is Postgres (store: {backend: postgres}): real `iris -p`
// runs over the fake LLM record sessions and usage in a throw-away Postgres server, the built CLI
// starts the dashboard on that profile, and headless Chromium reads them back: the overview's
// cost, the usage page's totals (equal to `iris usage --by model`'s), the session list, a Korean
// search and a conversation; an approval asked by another process is answered from the page.
// Nothing lands in a state.db, and the database password never shows.
/// <reference lib="dom" />
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  type PostgresServer,
  skipWithoutPostgres,
  startFakeLlm,
  startPostgres,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browsing, logIn } from "./browse.js";
import { skipWithoutChromium } from "./chromium.js";
import { runIris, type Started, startIris } from "./cli.js";

const KOREAN = "부산의 여름 바다는 정말 따뜻합니다";
const WAIT = { timeout: 60_000 };
const PASSWORD = "pg-secret-do-not-show";

const skip = skipWithoutChromium() || skipWithoutPostgres();

describe.skipIf(skip)(
  "iris dashboard on a Postgres profile (Chromium)",
  () => {
    let pg: PostgresServer;
    let fake: FakeLlm;
    let dir: TempDir;
    let work: string;
    let env: Record<string, string>;
    let dashboard: Started;
    let url = "";
    let browsing: Browsing;
    const openPage = (path: string) => browsing.openPage(path);

    beforeAll(async () => {
      pg = await startPostgres();
      fake = await startFakeLlm();
      dir = tempDir("iris-dashboard-pg-");
      work = join(dir.path, "work");
      mkdirSync(work, { recursive: true });
      writeFileSync(
        join(dir.path, "config.yaml"),
        [
          "model: {provider: openai, name: gpt-4o}",
          `providers: {openai: {base_url: "${fake.baseUrl}", api_mode: chat_completions}}`,
          "store: {backend: postgres, schema: dash}",
          "approvals: {timeout_seconds: 600}",
          "dashboard: {port: 0}",
          "",
        ].join("\n"),
      );
      // The server trusts loopback logins: any password goes, and none may be shown.
      env = { IRIS_HOME: dir.path, IRIS_DATABASE_URL: pg.url().replace("iris@", `iris:${PASSWORD}@`) };
      const usage = { input: 12_000, cacheRead: 4_000, output: 300 };
      for (const [prompt, reply] of [
        ["hello there", "hi!"],
        [`remember: ${KOREAN}`, "네, 기억하겠습니다."],
      ] as const) {
        fake.enqueue({ text: reply, usage });
        const r = await runIris(["-p", prompt], env, work);
        expect(r.stderr).not.toMatch(/Error:|internal error/);
        expect(r.code).toBe(0);
      }
      dashboard = startIris(["dashboard", "--port", "0"], env, work);
      url = (await dashboard.waitForStderr(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
      const token = readFileSync(join(dir.path, "dashboard.token"), "utf8").trim();
      browsing = await logIn(url, token);
    }, 180_000);

    afterAll(async () => {
      await browsing?.close();
      dashboard?.child.kill("SIGTERM");
      await dashboard?.exited;
      await fake?.close();
      await pg?.close();
      dir?.cleanup();
    });

    it("overview: today's cost from the Postgres store", async () => {
      const page = await openPage("/");
      expect(Number(await page.getAttribute("[data-cost-today]", "data-cost-today"))).toBeGreaterThan(0);
    });

    it("usage: the page's totals equal iris usage --by model's, on the same database", async () => {
      const page = await openPage("/usage?days=7&split=model");
      await page.waitForSelector("#chart-tokens[data-chart='ready']", WAIT);
      const cli = await runIris(["usage", "--by", "model", "--days", "7"], env, work);
      expect(cli.code, cli.stderr).toBe(0);
      const total = /^total\s+(\d+)\s+([\d,]+)\s/m.exec(cli.stdout);
      expect(total, cli.stdout).not.toBeNull();
      expect(total![1]).toBe("2");
      expect(await page.textContent("#total-input")).toBe(total![2]);
      expect(await page.textContent("main")).toContain("openai/gpt-4o");
      // Usage by cron job reads the gateway's cron runs on Postgres too: none here, and no refusal
      // (packages/iris/test/cron-leader.e2e.test.ts shows workers' runs split by their job).
      const cron = await openPage("/usage?days=7&split=cron");
      await cron.waitForSelector("#chart-tokens[data-chart='ready']", WAIT);
      expect(await cron.$("#split-unavailable")).toBeNull();
      expect(await cron.locator("table.usage").first().locator("tr").count()).toBe(2);
    });

    it("sessions: the list, a Korean search and a conversation", async () => {
      const page = await openPage("/sessions");
      await page.waitForSelector("#sessions[data-results='2']", WAIT);
      await page.fill("input[type=search]", "여름 바다");
      await page.waitForSelector("#sessions[data-results='1']", WAIT);
      await Promise.all([page.waitForURL(/\/sessions\/[0-9a-f-]+$/), page.click("#sessions a")]);
      await page.waitForSelector(".node.user", WAIT);
      expect(await page.textContent("main")).toContain("네, 기억하겠습니다.");
    });

    it("approvals: an iris -p waiting on the board runs once the page allows it", async () => {
      mkdirSync(join(work, "scratch-dir"), { recursive: true });
      fake.enqueue(
        { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf scratch-dir" } }] },
        { text: "cleaned up" },
      );
      const asking = startIris(["-p", "clean up the scratch folder"], env, work);
      const page = await openPage("/approvals");
      await page.waitForSelector("[data-ask][data-kind='approval']", WAIT);
      expect(await page.textContent("[data-ask]")).toContain("rm -rf scratch-dir");
      await page.click("[data-ask] button[value='once']");
      await page.waitForSelector("[data-answered]", WAIT);
      expect(await asking.exited).toBe(0);
      expect(asking.stdout()).toContain("cleaned up");
      expect(existsSync(join(work, "scratch-dir"))).toBe(false);
    });

    it("kept nothing in a state.db, showed no password and logged no console error", () => {
      expect(existsSync(join(dir.path, "state.db"))).toBe(false);
      expect(dashboard.stderr() + dashboard.stdout()).not.toContain(PASSWORD);
      expect(browsing.consoleErrors).toEqual([]);
    });
  },
  300_000,
);
