// The gateway's cron tables (src/state/cron-*.ts), the same on every engine: jobs outlive the
// process, a slot is claimed once whoever asks, the dashboard's hold on a job is read by the next
// tick, and each run's output is kept beside its claim. On Postgres one process at a time leads.
import { expect, it, onTestFinished } from "vitest";
import { CRON_TABLES, openCron, openCronState } from "../src/state/cron-open.js";
import { describeEngines } from "./store-engines.js";

const job = { schedule: "every 30m", platform: "irc", chatId: "#team", missed: "run" as const, prompt: "p" };

describeEngines("cron state", "cron", (ctx) => {
  it("keeps jobs across a restart, oldest first, and removes one with its control", async () => {
    const state = await openCronState(await ctx.openStore());
    const a = await state.add(job, 1000);
    const b = await state.add({ ...job, schedule: "0 9 * * *", missed: "skip", prompt: "q" }, 2000);
    expect(a.id).toMatch(/^[0-9a-f]{8}$/);
    expect(a).toEqual({ ...job, id: a.id, createdAt: 1000, lastSlot: null });
    await state.setPaused(a.id, true);
    const again = await openCronState(await ctx.openStore());
    expect(await again.list()).toEqual([a, { ...b }]);
    expect(await again.get(b.id)).toEqual(b);
    expect(await again.get("nope")).toBeUndefined();
    expect(await again.remove(a.id)).toBe(true);
    expect(await again.remove(a.id)).toBe(false);
    expect((await again.control(a.id)).paused).toBe(false);
    expect((await state.list()).map((j) => j.id)).toEqual([b.id]);
  });

  it("claims a slot once and moves the job's last slot forward only", async () => {
    const state = await openCronState(await ctx.openStore());
    const other = await openCronState(await ctx.openStore());
    const j = await state.add(job, 0);
    expect(await state.claimSlot(j.id, 60_000, 60_001)).toBe(true);
    expect(await other.claimSlot(j.id, 60_000, 60_002)).toBe(false);
    expect(await other.claimSlot(j.id, 30_000, 60_003)).toBe(true); // an older slot: claimed, not last
    expect((await state.get(j.id))?.lastSlot).toBe(60_000);
    expect(await other.claimSlot(j.id, 120_000)).toBe(true);
    expect((await state.get(j.id))?.lastSlot).toBe(120_000);
  });

  it("claims a slot for exactly one of many schedulers asking at once", async () => {
    const states = [
      await openCronState(await ctx.openStore()),
      await openCronState(await ctx.openStore()),
      await openCronState(await ctx.openStore()),
    ];
    const j = await states[0]!.add(job, 0);
    const won = await Promise.all(
      Array.from({ length: 12 }, (_, i) => states[i % 3]!.claimSlot(j.id, 3_600_000, i)),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
    expect((await states[2]!.get(j.id))?.lastSlot).toBe(3_600_000);
  });

  it("keeps the dashboard's hold on a job: paused, a run asked once, the next run", async () => {
    const state = await openCronState(await ctx.openStore());
    const j = await state.add(job);
    expect(await state.control(j.id)).toEqual({
      jobId: j.id,
      paused: false,
      runRequestedAt: null,
      nextRunAt: null,
    });
    await state.setPaused(j.id, true);
    await state.requestRun(j.id, 5000);
    await state.setNextRun(j.id, 9000);
    const other = await openCronState(await ctx.openStore());
    expect(await other.control(j.id)).toEqual({
      jobId: j.id,
      paused: true,
      runRequestedAt: 5000,
      nextRunAt: 9000,
    });
    expect(await Promise.all([other.takeRunRequest(j.id), state.takeRunRequest(j.id)])).toEqual(
      expect.arrayContaining([true, false]),
    );
    expect(await state.takeRunRequest(j.id)).toBe(false);
    await state.setPaused(j.id, false);
    await state.setNextRun(j.id, undefined);
    expect(await other.control(j.id)).toEqual({
      jobId: j.id,
      paused: false,
      runRequestedAt: null,
      nextRunAt: null,
    });
  });

  it("lists a job's runs newest first with what each left; a retried run's record wins", async () => {
    const state = await openCronState(await ctx.openStore());
    const j = await state.add(job, 0);
    for (const slot of [1000, 2000, 3000]) await state.claimSlot(j.id, slot, slot + 1);
    await state.recordRun(j.id, 1000, "s1", "first", 1500);
    await state.recordRun(j.id, 3000, undefined, "third", 3500);
    await state.recordRun(j.id, 3000, "s3", "third again", 3600);
    expect(await state.runs(j.id)).toEqual([
      { slot: 3000, firedAt: 3001, sessionId: "s3", finishedAt: 3600, output: "third again" },
      { slot: 2000, firedAt: 2001, sessionId: null, finishedAt: null, output: null },
      { slot: 1000, firedAt: 1001, sessionId: "s1", finishedAt: 1500, output: "first" },
    ]);
    expect((await state.runs(j.id, 1)).map((r) => r.slot)).toEqual([3000]);
    expect(await state.runs("other")).toEqual([]);
  });

  it("names the job whose run made each session (usage by cron job), however many are asked about", async () => {
    const state = await openCronState(await ctx.openStore());
    const a = await state.add(job, 1000);
    const b = await state.add(job, 1001);
    await state.claimSlot(a.id, 1000, 1001);
    await state.recordRun(a.id, 1000, "sa1", "x");
    await state.claimSlot(a.id, 2000, 2001);
    await state.recordRun(a.id, 2000, "sa2", "x");
    await state.claimSlot(b.id, 1000, 1001);
    await state.recordRun(b.id, 1000, "sb1", "x");
    await state.recordRun(b.id, 2000, undefined, "failed before its session");
    expect(await state.jobsOfSessions(["sa1", "sb1", "chat-session", "sa2"])).toEqual(
      new Map([
        ["sa1", a.id],
        ["sb1", b.id],
        ["sa2", a.id],
      ]),
    );
    expect(await state.jobsOfSessions([])).toEqual(new Map());
    // Many ids in one question.
    const many = Array.from({ length: 1200 }, (_, i) => `other-${i}`);
    expect(await state.jobsOfSessions([...many, "sb1"])).toEqual(new Map([["sb1", b.id]]));
  });

  it("adopts the jobs a profile kept before the gateway owned the tables", async () => {
    const store = await ctx.openStore();
    // A job written before the set existed (on SQLite: the store's own migration made the table).
    const before = {
      owner: "cron_before",
      sqlite: [
        {
          version: 1,
          name: "old_job",
          sql: "INSERT INTO gateway_cron_jobs (id, schedule, platform, chat_id, missed, created_at, last_slot, prompt) VALUES ('0000abcd', 'every 1h', 'irc', '#x', 'skip', 7, 9, 'old');",
        },
      ],
      postgres: [{ version: 1, name: "old_job", sql: "SELECT 1;" }],
    };
    if (ctx.engine === "sqlite") await store.openTables(before);
    const state = await openCronState(store);
    expect(await store.tablesVersion(CRON_TABLES)).toEqual({ version: 1, latest: 1 });
    if (ctx.engine === "sqlite")
      expect(await state.get("0000abcd")).toEqual({
        id: "0000abcd",
        schedule: "every 1h",
        platform: "irc",
        chatId: "#x",
        missed: "skip",
        createdAt: 7,
        lastSlot: 9,
        prompt: "old",
      });
    // Opening again changes nothing.
    await openCronState(await ctx.openStore());
    expect((await state.list()).length).toBe(ctx.engine === "sqlite" ? 1 : 0);
  });

  it.runIf(ctx.engine === "postgres")(
    "lets one process lead at a time, and the next one take over when the leader goes",
    async () => {
      const a = await openCron(await ctx.openStore());
      const b = await openCron(await ctx.openStore());
      const c = await openCron(await ctx.openStore());
      // A held lock keeps its connection out of the pool: a failed check must not hang the close.
      onTestFinished(async () => {
        for (const x of [a, b, c]) await x.leaderLock?.release();
      });
      expect(await a.leaderLock?.lead()).toBe(true);
      expect(await b.leaderLock?.lead()).toBe(false);
      expect(await a.leaderLock?.lead()).toBe(true); // still held
      await a.leaderLock?.release();
      expect(await b.leaderLock?.lead()).toBe(true);
      expect(await c.leaderLock?.lead()).toBe(false);
      // The leader's connection goes (its process died, its machine fell off): the lock with it.
      // The timeout makes the kill wait for the backend to be gone, and its lock with it.
      const admin = await (await ctx.openStore()).openTables(CRON_TABLES);
      if (admin.dialect !== "postgres") throw new Error("postgres expected");
      const killed = await admin.query<{ done: boolean }>(
        "SELECT pg_terminate_backend(pid, 10000) AS done FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()",
      );
      expect(killed.rows).toEqual([{ done: true }]);
      expect(await c.leaderLock?.lead()).toBe(true);
      expect(await b.leaderLock?.lead()).toBe(false); // it finds out, and does not lead
      expect(b.leaderLock?.leading).toBe(false);
      await c.leaderLock?.release();
    },
  );
});
