// Issue 30's cron on many processes: two `iris worker` processes (the real bin, two homes: two
// machines) on one PostgreSQL with its queue. One leads cron and enqueues each due slot as the
// job `cron:<job>:<slot>`; either runs it. The leader is SIGKILLed; the other takes over and the
// next slots still run, each once: one recorded run and one delivery job per slot, and the model
// asked once per slot (once more at most, for a run the kill cut short and the survivor retried).
// `iris cron add|list` work on the Postgres profile, and `iris dashboard` shows the runs on its cron
// page and their usage split by cron job.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openCronState } from "@iris/gateway/cron-state";
import { loadProfile, openPostgresStore, openProfileQueue } from "@iris/host";
import { type FakeLlm, skipWithoutPostgres, startFakeLlm, startPostgres } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { runIris, tempHome } from "./helpers.js";
import { type Cleanups, type Proc, runCleanups, startIris, until } from "./processes.js";

const cleanups: Cleanups = [];
afterEach(() => runCleanups(cleanups));

const start = (args: string[], env: Record<string, string>): Proc => startIris(args, env, cleanups);

const PROMPT = "say the time of this tick";

describe.skipIf(skipWithoutPostgres())("cron under one leader on Postgres (iris worker)", () => {
  it("runs each due slot once; when the leader dies the other worker leads and the next slots run once", async () => {
    const pg = await startPostgres();
    cleanups.push(() => pg.close());
    const fake: FakeLlm = await startFakeLlm();
    cleanups.push(() => fake.close());
    fake.setHandler(() => ({ text: "tick answered" }));
    const root = tempHome();
    cleanups.push(root.cleanup);
    const url = pg.url();
    const machine = (name: string): Record<string, string> => {
      const home = join(root.home, name);
      mkdirSync(home, { recursive: true });
      writeFileSync(
        join(home, "config.yaml"),
        `model: {provider: fake, name: fake-model}\nproviders:\n  fake: { base_url: "${fake.baseUrl}", api_mode: chat_completions }\n` +
          "store: {backend: postgres, schema: crew}\n" +
          `queue: {name: cron-e2e-${process.pid}, lock_seconds: 3, stalled_check_seconds: 1}\n`,
      );
      return { IRIS_HOME: home, IRIS_DATABASE_URL: url };
    };
    const a = machine("a");
    const b = machine("b");

    // A job every two seconds (a cron expression with seconds), added on one machine, seen on the other.
    const added = await runIris(["cron", "add", "*/2 * * * * *", PROMPT, "--to", "irc:#team"], { env: a });
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    const jobId = /added job (\S+):/.exec(added.stdout)?.[1] ?? "";
    const listed = await runIris(["cron", "list"], { env: b });
    expect(listed.stdout).toContain(`${jobId}  */2 * * * * *  → irc:#team`);

    const store = await openPostgresStore({ url, schema: "crew" });
    cleanups.push(() => store.close());
    const cron = await openCronState(store);
    const finished = async () => (await cron.runs(jobId, 1000)).filter((r) => r.finishedAt !== null);

    // One tick at a time each: a killed worker cuts at most one run short.
    const workers = [start(["worker", "--concurrency", "1"], a), start(["worker", "--concurrency", "1"], b)];
    const leads = (w: Proc) => /leads cron now/.test(w.stderr());
    await until(() => workers.some(leads), "a worker to lead cron");
    const leader = workers.find(leads) as Proc;
    const other = workers.find((w) => w !== leader) as Proc;
    expect(leads(other)).toBe(false);
    await until(async () => (await finished()).length >= 2, "two slots to run");

    leader.child.kill("SIGKILL");
    await leader.exited;
    const before = (await finished()).length;
    await until(() => leads(other), "the other worker to take the lead");
    await until(async () => (await finished()).length >= before + 2, "two more slots to run");

    other.child.kill("SIGTERM");
    expect((await other.exited).code, other.stderr()).toBe(0);

    const runs = await finished();
    const slots = runs.map((r) => r.slot);
    expect(new Set(slots).size).toBe(slots.length);
    // Each run has its own session, and nothing else asked the model for the job.
    expect(new Set(runs.map((r) => r.sessionId)).size).toBe(runs.length);
    const asked = fake.requests.filter((r) => JSON.stringify(r.body).includes(PROMPT)).length;
    expect(asked).toBeGreaterThanOrEqual(Math.min(runs.length, 20));
    expect(asked).toBeLessThanOrEqual(runs.length + 1);
    expect(runs.every((r) => r.output === "tick answered")).toBe(true);
    // One delivery job per run for the gateway running irc (keyed cron:<job>:<slot>), none twice.
    const profile = loadProfile({ env: a, registerSecret: () => {} });
    if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
    const deliveries = await openProfileQueue(profile, "deliveries-irc");
    cleanups.push(() => deliveries.close());
    for (const slot of slots) expect(await deliveries.get(`cron:${jobId}:${slot}`)).toBeDefined();
    const counts = await deliveries.counts();
    expect(Object.values(counts).reduce((x, y) => x + y, 0)).toBe(slots.length);
    // The slots are the job's own (every second second), claimed in order.
    for (const s of slots) expect(s % 2000).toBe(0);

    // The dashboard (another machine) shows the job, its runs, and their usage under the job.
    const dash = start(["dashboard", "--port", "0"], b);
    await until(
      () => /listening on http:\/\/127\.0\.0\.1:\d+/.test(dash.stderr()),
      "the dashboard to listen",
    );
    const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(dash.stderr())?.[1] ?? "";
    const login = await fetch(`${base}/login`, {
      method: "POST",
      body: new URLSearchParams({
        token: readFileSync(join(b.IRIS_HOME ?? "", "dashboard.token"), "utf8").trim(),
      }),
      redirect: "manual",
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/^iris_dashboard=/);
    const get = async (path: string) => {
      const r = await fetch(`${base}${path}`, { headers: { cookie } });
      expect(r.status, path).toBe(200);
      return r.text();
    };
    const page = await get("/cron");
    expect(page).toContain(`data-job="${jobId}"`);
    expect(Number(/class="cron-runs" data-runs="(\d+)"/.exec(page)?.[1])).toBeGreaterThanOrEqual(
      Math.min(runs.length, 20),
    );
    const csv = (await get("/usage.csv?days=2&split=cron")).trim().split("\n");
    expect(csv[0]).toMatch(/^day,cron,calls,/);
    const byJob = csv.slice(1).map((l) => l.split(","));
    expect(new Set(byJob.map((c) => c[1]))).toEqual(new Set([jobId]));
    // One model call per recorded run (the run a kill cut short made a session of its own, unrecorded).
    expect(byJob.reduce((n, c) => n + Number(c[2]), 0)).toBe(runs.length);
  }, 150_000);
});
