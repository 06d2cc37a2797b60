// What only the Postgres engine has: migrations that several processes may run at once (one
// advisory lock), a schema written by a newer Iris refused, and a server that goes away mid-use
// reported as a store error that names the server (never its password).
import { type PostgresServer, skipWithoutPostgres, startPostgres } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_LATEST_VERSION, PG_MIGRATIONS } from "../src/postgres/migrations.js";
import { probePostgres } from "../src/postgres/probe.js";
import { PG_SHORT_ID_PREFIX_SQL } from "../src/postgres/sessions.js";
import { openPostgresStore } from "../src/postgres/store.js";

let pg: PostgresServer;
beforeAll(async () => {
  if (!skipWithoutPostgres()) pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.close();
});

describe.skipIf(skipWithoutPostgres())("the Postgres engine", () => {
  it("migrates once when several processes open an empty schema at the same moment", async () => {
    const stores = await Promise.all(
      Array.from({ length: 3 }, () => openPostgresStore({ url: pg.url(), schema: "race" })),
    );
    const versions = await stores[0]!.pool.query<{ version: number }>(
      "SELECT version FROM race.schema_version",
    );
    expect(versions.rows.map((r) => r.version)).toEqual(PG_MIGRATIONS.map((m) => m.version));
    // Each one works on the same tables.
    const s = await stores[1]!.createSession({ source: "cli" });
    expect((await stores[2]!.getSession(s.id)).id).toBe(s.id);
    await Promise.all(stores.map((x) => x.close()));
    // Opening again changes nothing.
    const again = await openPostgresStore({ url: pg.url(), schema: "race" });
    expect((await again.listSessions()).map((r) => r.id)).toEqual([s.id]);
    await again.close();
  });

  it("keeps profiles apart by schema, and refuses a bad schema name", async () => {
    const a = await openPostgresStore({ url: pg.url(), schema: "team_a" });
    const b = await openPostgresStore({ url: pg.url(), schema: "team_b" });
    await a.createSession({ source: "cli", title: "a's" });
    expect(await b.listSessions()).toEqual([]);
    await Promise.all([a.close(), b.close()]);
    await expect(
      openPostgresStore({ url: pg.url(), schema: "Robert'); DROP TABLE x;--" }),
    ).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("sums the usage a version-1 schema already holds when migration 2 adds the daily sums", async () => {
    const store = await openPostgresStore({ url: pg.url(), schema: "from_v1" });
    const s = await store.createSession({ source: "cli" });
    // Back to version 1 (what migrations 2 and 3 made gone), then calls recorded as a version-1 Iris did.
    await store.pool.query(
      "DROP TABLE usage_daily, dashboard_asks, dashboard_presence, gateway_platform_health, mcp_server_state, web_pages",
    );
    await store.pool.query("DROP INDEX sessions_by_short_id_8");
    await store.pool.query("DELETE FROM schema_version WHERE version > 1");
    const now = Date.now();
    for (const cost of [0.25, 0.5])
      await store.pool.query(
        "INSERT INTO usage (session_id, provider, model, input_tokens, output_tokens, cache_read_tokens, " +
          "cache_write_tokens, reasoning_tokens, cost_usd, latency_ms, status, created_at) " +
          "VALUES ($1, 'openai', 'gpt-4o', 100, 10, 0, 0, 0, $2, 5, 'ok', $3)",
        [s.id, cost, now],
      );
    await store.close();
    const again = await openPostgresStore({ url: pg.url(), schema: "from_v1" });
    const day = Math.floor(now / 86_400_000);
    expect(await again.dashboard.reads.usageOnDays(day, day)).toMatchObject({
      calls: 2,
      inputTokens: 200,
      costUsd: 0.75,
    });
    expect((await again.dashboard.reads.usageByDay(day, day, "platform")).map((r) => r.key)).toEqual(["cli"]);
    await again.close();
  });

  it("refuses a schema a newer Iris wrote, changing nothing", async () => {
    const store = await openPostgresStore({ url: pg.url(), schema: "newer" });
    await store.pool.query(
      "INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'future', 0)",
    );
    await store.close();
    await expect(openPostgresStore({ url: pg.url(), schema: "newer" })).rejects.toMatchObject({
      code: "db_too_new",
    });
  });

  it("probes the server, the schema's version and pg_trgm for doctor, without writing", async () => {
    expect(await probePostgres({ url: pg.url(), schema: "not_made_yet" })).toMatchObject({
      version: 0,
      latest: PG_LATEST_VERSION,
      trigram: true,
    });
    const store = await openPostgresStore({ url: pg.url(), schema: "probed" });
    await store.close();
    expect(await probePostgres({ url: pg.url(), schema: "probed" })).toMatchObject({
      version: PG_LATEST_VERSION,
    });
    const down = await probePostgres({ url: "postgres://iris:s3cret@127.0.0.1:1/postgres" });
    expect(down.error).toMatch(/Postgres \(iris@127\.0\.0\.1:1\/postgres\)/);
    expect(down.error).not.toContain("s3cret");
  });

  it("ends a call whose connection is lost with a store error naming the server; nothing half-written", async () => {
    const store = await openPostgresStore({ url: pg.url(), schema: "lost" });
    const other = await openPostgresStore({ url: pg.url(), schema: "lost" });
    const s = await store.createSession({ source: "cli" });
    // Another writer holds the session's row, so the append waits on the server...
    const blocker = await other.pool.connect();
    await blocker.query("BEGIN");
    await blocker.query("SELECT id FROM sessions WHERE id = $1 FOR UPDATE", [s.id]);
    const append = store.appendNode(s.id, { kind: "message", message: { role: "user", content: "lost?" } });
    const waiting = async () =>
      (
        await blocker.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
        )
      ).rows[0]?.n ?? 0;
    await expect.poll(waiting).toBe(1);
    // ...when its connection is cut (a restart, a network drop). The append fails the moment its
    // backend goes, which can be before the kill's own answer comes back: expected from here on.
    const failed = expect(append).rejects.toMatchObject({
      code: "db_io",
      message: expect.stringMatching(/^Postgres \(iris@127/),
    });
    await blocker.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
    );
    await failed;
    await blocker.query("ROLLBACK");
    blocker.release();
    // Nothing of the append landed, and the pool reconnects for the next call.
    expect(await store.activePath(s.id)).toEqual([]);
    expect(
      (await store.appendNode(s.id, { kind: "message", message: { role: "user", content: "again" } }))
        .parentId,
    ).toBeNull();
    await Promise.all([store.close(), other.close()]);
  });

  it("answers a short id's first characters from the index on the short id, not a scan", async () => {
    const store = await openPostgresStore({ url: pg.url(), schema: "short_ids" });
    for (let i = 0; i < 2000; i++) await store.createSession({ source: "cli" });
    await store.pool.query("ANALYZE sessions");
    const plan = await store.pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${PG_SHORT_ID_PREFIX_SQL}`, [
      "9be1",
      "9be2",
      6,
    ]);
    const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).toMatch(/Index Scan using sessions_by_short_id_8/);
    expect(text).not.toMatch(/Seq Scan/);
    await store.close();
  });
});
