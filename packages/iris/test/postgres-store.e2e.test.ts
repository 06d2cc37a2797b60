// A profile whose state lives in PostgreSQL (`store: {backend: postgres}`), as a user runs it: the
// built bin, a throw-away Postgres server, the fake LLM. Two homes (two machines, say) share one
// database: a conversation started on one is continued on the other; `iris migrate`, `iris
// sessions`, `iris usage` (by model and by day too), `iris doctor` work on it; nothing lands in a state.db; the password never shows.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  type PostgresServer,
  skipWithoutPostgres,
  startFakeLlm,
  startPostgres,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

let pg: PostgresServer;
let fake: FakeLlm;
const homes: ReturnType<typeof tempHome>[] = [];
beforeAll(async () => {
  if (skipWithoutPostgres()) return;
  pg = await startPostgres();
  fake = await startFakeLlm();
}, 60_000);
afterAll(async () => {
  await fake?.close();
  await pg?.close();
  for (const h of homes) h.cleanup();
});

/** A profile on the shared database (its own home: another machine's, as far as Iris can tell). */
function machine(schema = "team"): { env: Record<string, string>; home: string } {
  const h = tempHome();
  homes.push(h);
  mkdirSync(h.home, { recursive: true, mode: 0o700 });
  writeFileSync(join(h.home, "config.yaml"), `store:\n  backend: postgres\n  schema: ${schema}\n`);
  // The URL, password included (the server trusts loopback logins: any password goes).
  const url = pg.url().replace("iris@", "iris:hunter2@");
  return { env: { IRIS_HOME: h.home, IRIS_DATABASE_URL: url }, home: h.home };
}

describe.skipIf(skipWithoutPostgres())("a profile on Postgres (store.backend: postgres)", () => {
  it("migrates, runs turns from two machines on one conversation, lists, searches and checks it", async () => {
    const a = machine();
    const b = machine();
    const migrated = await Promise.all([
      runIris(["migrate"], { env: a.env }),
      runIris(["migrate"], { env: b.env }),
    ]);
    for (const m of migrated) {
      expect(m.stderr).toBe("");
      expect(m.stdout).toMatch(
        /^store: postgres schema team at schema version \d+ \(the newest\)\nserve's tables at version \d+ \(the newest\)\ngateway's tables at version \d+ \(the newest\)\ngateway_cron's tables at version \d+ \(the newest\)\n$/,
      );
      expect(m.code).toBe(0);
    }
    // The gateway's commands reach its tables in the shared schema from any machine.
    const added = await runIris(["gateway", "webchat", "add-user", "ann"], { env: a.env });
    expect(added.code).toBe(0);
    const users = await runIris(["gateway", "webchat", "users"], { env: b.env });
    expect(users.stderr).toBe("");
    expect(users.stdout).toMatch(/^ann {2}since /);
    const pairing = await runIris(["pairing", "list"], { env: b.env });
    expect(pairing.code).toBe(0);
    expect(pairing.stdout).toContain("No pairing requests are waiting.");
    const route = routeArgs(fake.baseUrl, "chat_completions");
    fake.enqueue({ text: "안녕하세요, the answer is 42" });
    const first = await runIris(["-p", "한국어로 질문: what is the answer?", ...route], { env: a.env });
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("the answer is 42");
    // The other machine continues the newest conversation: its request carries the first exchange.
    fake.enqueue({ text: "still 42" });
    const second = await runIris(["-p", "and again?", "-c", ...route], { env: b.env });
    expect(second.stdout).toContain("still 42");
    const sent = fake.requests.at(-1)?.rawBody.toString("utf8") ?? "";
    expect(sent).toContain("한국어로 질문");
    expect(sent).toContain("the answer is 42");

    const listed = await runIris(["sessions", "list"], { env: a.env });
    expect(listed.stdout.trim().split("\n")).toHaveLength(1);
    const search = await runIris(["sessions", "search", "국어로"], { env: b.env });
    expect(search.stdout).toContain("[국어로]");
    const words = await runIris(["sessions", "search", "answer"], { env: b.env });
    expect(words.stdout).toContain("[answer]");
    const usage = await runIris(["usage"], { env: a.env });
    expect(usage.code).toBe(0);
    // Totals by model and by day come from the daily sums both machines' calls wrote.
    const byModel = await runIris(["usage", "--by", "model"], { env: b.env });
    expect(byModel.stderr).toBe("");
    expect(byModel.stdout).toMatch(/^custom\/fake-model\s+2\s/m);
    expect(byModel.stdout).toMatch(/^total\s+2\s/m);
    const byDay = await runIris(["usage", "--by", "day", "--days", "2"], { env: a.env });
    expect(byDay.stdout).toMatch(/^\d{4}-\d\d-\d\d\s+2\s/m);
    // The commands that read without a model go through host's records, as on SQLite.
    const short = listed.stdout.trim().split(/\s+/)[0] ?? "";
    const shown = await runIris(["sessions", "show", short], { env: b.env });
    expect(shown.stdout).toContain("› 한국어로 질문: what is the answer?");
    expect(shown.stdout).toContain("still 42");
    const calls = await runIris(["usage", "--session", short], { env: b.env });
    expect(calls.stderr).toBe("");
    expect(calls.stdout).toMatch(/^session \S+: [1-9]\d* API calls/m);
    const context = await runIris(["context", "--session", short], { env: a.env });
    expect(context.stderr).toBe("");
    expect(context.stdout).toMatch(/^ {2}compressions {7}0 so far$/m);
    const effects = await runIris(["effects", "list"], { env: a.env });
    expect(effects.stdout).toBe("no unresolved effects\n");

    const doctor = await runIris(["doctor", "--offline"], { env: a.env });
    expect(doctor.stdout).toMatch(
      /store \(postgres\).*connected to iris@127\.0\.0\.1:\d+\/postgres, schema team/,
    );
    expect(doctor.stdout).toMatch(/store schema.*\(the newest\)/);
    expect(doctor.stdout).toMatch(/pg_trgm.*installed/);
    // Nothing of it is in a state.db, and the password is never printed.
    for (const m of [a, b]) expect(existsSync(join(m.home, "state.db"))).toBe(false);
    for (const out of [first, second, listed, search, doctor, ...migrated])
      expect(out.stdout + out.stderr).not.toContain("hunter2");
  }, 120_000);

  it("a server lost mid-turn ends the turn with store_error and a clear message; nothing half-written", async () => {
    const m = machine("fault");
    const route = routeArgs(fake.baseUrl, "chat_completions");
    fake.enqueue({ text: "first answer" });
    expect((await runIris(["-p", "first question", ...route], { env: m.env })).code).toBe(0);
    // The server goes down while the model answers the second question: the answer cannot be saved.
    fake.setHandler(async () => {
      pg.stop("immediate");
      return { text: "an answer nobody keeps" };
    });
    let lost: Awaited<ReturnType<typeof runIris>>;
    try {
      lost = await runIris(["-p", "second question", "-c", ...route], { env: m.env });
    } finally {
      fake.setHandler(undefined);
      await pg.start();
    }
    expect(lost.code).not.toBe(0);
    expect(lost.stdout + lost.stderr).toMatch(
      /Stopped: the session could not be saved \(Postgres \(iris@127\.0\.0\.1:\d+\/postgres\)/,
    );
    expect(lost.stdout + lost.stderr).not.toContain("hunter2");
    expect(lost.stdout + lost.stderr).not.toMatch(/\n\s+at /); // no stack trace
    // Back up, the conversation holds whole messages only: the second question, no half answer.
    fake.enqueue({ text: "third answer" });
    const third = await runIris(["-p", "third question", "-c", ...route], { env: m.env });
    expect(third.code).toBe(0);
    const roles = (fake.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages
      .filter((x) => x.role !== "system")
      .map((x) => `${x.role}: ${x.content}`);
    expect(roles.slice(0, 2)).toEqual(["user: first question", "assistant: first answer"]);
    expect(roles.join("\n")).not.toContain("an answer nobody keeps");
    expect(roles.at(-1)).toBe("user: third question");
  }, 120_000);

  it("says what is wrong when the URL is missing or the server does not answer, naming no password", async () => {
    const c = machine();
    const missing = await runIris(["sessions", "list"], { env: { IRIS_HOME: c.home } });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("IRIS_DATABASE_URL is not set");
    const down = await runIris(["migrate"], {
      env: { IRIS_HOME: c.home, IRIS_DATABASE_URL: "postgres://iris:hunter2@127.0.0.1:1/postgres" },
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Postgres \(iris@127\.0\.0\.1:1\/postgres\)/);
    expect(down.stderr).not.toContain("hunter2");
    // The gateway runs on Postgres: what stops this one is its missing platforms, said so.
    const gateway = await runIris(["gateway", "run"], { env: c.env });
    expect(gateway.code).toBe(2);
    expect(gateway.stderr).toContain("no gateway platforms configured");
  }, 60_000);

  it("takes the URL from the profile's .env, as the key's description says", async () => {
    const d = machine("from_dotenv");
    writeFileSync(join(d.home, ".env"), `IRIS_DATABASE_URL=${d.env.IRIS_DATABASE_URL}\n`, { mode: 0o600 });
    const r = await runIris(["migrate"], { env: { IRIS_HOME: d.home } });
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^store: postgres schema from_dotenv at schema version \d+/);
    expect(r.code).toBe(0);
  }, 60_000);
});
