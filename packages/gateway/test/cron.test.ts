// Cron: a job fires once per slot — also across a restart and with two schedulers — a missed slot
// runs once or is skipped per job, and each run is a fresh session against the model.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { IrisProcess, loadProfile } from "@iris/host";
import { storeOf } from "@iris/host/testing";
import { getLogger } from "@iris/llm";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CronScheduler, parseSchedule } from "../src/cron.js";
import type { CronJobRow } from "../src/state/cron-open.js";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess;
const fired: { job: string; slot: number; text: string }[] = [];

beforeEach(async () => {
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: "daily report" }));
  dir = tempDir("iris-gw-cron");
  writeFileSync(
    join(dir.path, "config.yaml"),
    `model: {provider: fake, name: fake-model}\nproviders: {fake: {base_url: "${fake.baseUrl}"}}\n`,
  );
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  iris = await IrisProcess.open({ profile, platform: "gateway", env: {} });
  fired.length = 0;
});
afterEach(async () => {
  await iris.close();
  await fake.close();
  dir.cleanup();
});

const scheduler = () =>
  new CronScheduler(
    iris,
    dir.path,
    async (job: CronJobRow, slot: number, text: string) => {
      fired.push({ job: job.id, slot, text });
    },
    getLogger(),
  );
const T0 = Date.parse("2026-12-01T09:00:00Z");
const MIN = 60_000;

describe("parseSchedule", () => {
  it("reads every/at/cron and names what is wrong", () => {
    expect(parseSchedule("every 30m")).toEqual({ ok: true, schedule: { kind: "every", ms: 30 * MIN } });
    expect(parseSchedule("at 2026-12-24T18:00Z")).toMatchObject({ ok: true, schedule: { kind: "at" } });
    expect(parseSchedule("0 9 * * 1-5")).toMatchObject({ ok: true, schedule: { kind: "cron" } });
    expect(parseSchedule("every 10s")).toMatchObject({ ok: false, error: expect.stringContaining("1m") });
    expect(parseSchedule("sometimes")).toMatchObject({
      ok: false,
      error: expect.stringContaining("sometimes"),
    });
  });
});

describe("CronScheduler", () => {
  it("fires once per slot, also after a restart and with a second scheduler", async () => {
    const a = scheduler();
    const job = await (await a.state()).add(
      { schedule: "every 30m", platform: "irc", chatId: "#team", missed: "run", prompt: "report" },
      T0,
    );
    await a.tick(T0 + 29 * MIN);
    expect(fired).toEqual([]);
    await a.tick(T0 + 30 * MIN + 5_000);
    await a.tick(T0 + 30 * MIN + 30_000);
    const b = scheduler(); // a restarted gateway, or a second one ticking the same store
    await Promise.all([b.tick(T0 + 30 * MIN + 40_000), a.tick(T0 + 30 * MIN + 40_000)]);
    expect(fired).toEqual([{ job: job.id, slot: T0 + 30 * MIN, text: "daily report" }]);
    await b.tick(T0 + 60 * MIN + 1_000);
    expect(fired.map((f) => f.slot)).toEqual([T0 + 30 * MIN, T0 + 60 * MIN]);
    expect(fake.requests).toHaveLength(2);
    // Each run is a fresh session.
    expect((await storeOf(iris).listSessions({ limit: 10 })).filter((s) => s.source === "cron")).toHaveLength(
      2,
    );
  });

  it("a slot missed while stopped runs once, or is skipped, per job", async () => {
    const s = scheduler();
    const run = await (await s.state()).add(
      { schedule: "every 30m", platform: "irc", chatId: "#a", missed: "run", prompt: "p" },
      T0,
    );
    await (await s.state()).add(
      { schedule: "every 30m", platform: "irc", chatId: "#b", missed: "skip", prompt: "p" },
      T0,
    );
    await s.tick(T0 + 5 * 60 * MIN + 10 * MIN); // ten slots passed while down
    expect(fired.map((f) => f.job)).toEqual([run.id]);
    await s.tick(T0 + 5 * 60 * MIN + 11 * MIN);
    expect(fired).toHaveLength(1);
  });

  it("runs a one-shot once and a cron expression at its times", async () => {
    const s = scheduler();
    const once = await (await s.state()).add(
      { schedule: "at 2026-12-01T09:10:00Z", platform: "irc", chatId: "#a", missed: "run", prompt: "p" },
      T0,
    );
    const quarter = await (await s.state()).add(
      { schedule: "*/15 * * * *", platform: "irc", chatId: "#b", missed: "run", prompt: "p" },
      T0,
    );
    await s.tick(T0 + 10 * MIN + 1_000);
    await s.tick(T0 + 15 * MIN + 1_000);
    await s.tick(T0 + 20 * MIN);
    await s.tick(T0 + 30 * MIN + 1_000);
    expect(fired.map((f) => [f.job, f.slot])).toEqual([
      [once.id, T0 + 10 * MIN],
      [quarter.id, T0 + 15 * MIN],
      [quarter.id, T0 + 30 * MIN],
    ]);
  });

  it("a paused job does not fire; run now fires it once (paused too); runs keep their session and output", async () => {
    const s = scheduler();
    const job = await (await s.state()).add(
      { schedule: "every 30m", platform: "irc", chatId: "#a", missed: "run", prompt: "p" },
      T0,
    );
    await (await s.state()).setPaused(job.id, true);
    await s.tick(T0 + 30 * MIN + 1_000);
    expect(fired).toEqual([]);
    expect((await (await s.state()).control(job.id)).nextRunAt).toBe(T0 + 60 * MIN);
    await (await s.state()).requestRun(job.id);
    await s.tick(T0 + 40 * MIN);
    await s.tick(T0 + 41 * MIN);
    expect(fired.map((f) => f.slot)).toEqual([T0 + 40 * MIN]);
    const [run] = await (await s.state()).runs(job.id);
    expect(run).toMatchObject({ slot: T0 + 40 * MIN, output: "daily report" });
    expect((await storeOf(iris).getSession(run!.sessionId!)).source).toBe("cron");
    await (await s.state()).setPaused(job.id, false);
    await s.tick(T0 + 60 * MIN + 1_000);
    expect(fired.map((f) => f.slot)).toEqual([T0 + 40 * MIN, T0 + 60 * MIN]);
  });
});

describe("iris cron list|add|remove", () => {
  it("adds, lists and removes jobs, and names a bad schedule or address", async () => {
    const { cronAdd, cronList, cronRemove } = await import("../src/cron-commands.js");
    let out = "";
    let err = "";
    const io = {
      env: { IRIS_HOME: dir.path },
      out: (s: string) => {
        out += s;
      },
      err: (s: string) => {
        err += s;
      },
    };
    expect(await cronAdd(io, "every 2h", "irc:#team", "summarise the day", "skip")).toBe(0);
    const id = /added job (\S+):/.exec(out)?.[1] ?? "";
    expect(await cronAdd(io, "every now and then", "irc:#team", "x", "run")).toBe(2);
    expect(err).toContain('"every now and then"');
    expect(await cronAdd(io, "every 2h", "team", "x", "run")).toBe(2);
    expect(err).toContain("PLATFORM:CHAT");
    out = "";
    expect(await cronList(io)).toBe(0);
    expect(out).toContain(`${id}  every 2h  → irc:#team  (missed: skip; last never)  summarise the day`);
    expect(await cronRemove(io, id)).toBe(0);
    out = "";
    await cronList(io);
    expect(out).toBe("No scheduled jobs.\n");
  });
});
