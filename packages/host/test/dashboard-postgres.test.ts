// What the dashboard reads of the running processes on a Postgres profile, as host gives it: a
// gateway's platform health written through IrisProcess.recordPlatformHealth, MCP states and asks.
// The database is shared by machines, so a row names its host: a dead pid on this machine is a
// process gone (health stopped, MCP servers gone, asks withdrawn), while another machine's rows
// are taken as they say (their pid means nothing here).
import { writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { PostgresStore } from "@iris/store";
import { type PostgresServer, skipWithoutPostgres, startPostgres, tempDir } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IrisProcess } from "../src/app/process.js";
import { loadProfile } from "../src/config/index.js";
import { DashboardData } from "../src/dashboard/data.js";
import { storeOf } from "../src/testing.js";

let pg: PostgresServer;
beforeAll(async () => {
  if (!skipWithoutPostgres()) pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.close();
});

/** A pid no process has (the kernel's limit is below it). */
const DEAD_PID = 2 ** 30;

describe.skipIf(skipWithoutPostgres())("the dashboard's view of running processes on Postgres", () => {
  it("shows what this machine's processes recorded, judges only their pids, and takes other machines' rows as they are", async () => {
    const dir = tempDir("iris-dash-pg");
    try {
      writeFileSync(join(dir.path, "config.yaml"), "store: {backend: postgres, schema: live}\n");
      const profile = loadProfile({
        env: { IRIS_HOME: dir.path, IRIS_DATABASE_URL: pg.url() },
        registerSecret: () => {},
      });
      if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
      const gateway = await IrisProcess.open({ profile, platform: "gateway", env: {} });
      const data = await DashboardData.open(profile);
      try {
        await gateway.recordPlatformHealth("irc", "degraded", "connection refused");
        await gateway.recordPlatformHealth("irc", "connected");
        expect(await data.platformHealth()).toMatchObject([
          {
            platform: "irc",
            state: "connected",
            pid: process.pid,
            host: hostname(),
            lastError: "connection refused",
          },
        ]);

        // Rows another machine wrote, and rows a process of this machine left when it died.
        const pool = (storeOf(gateway) as PostgresStore).pool;
        for (const [platform, host] of [
          ["discord", "other-machine"],
          ["slack", hostname()],
        ])
          await pool.query(
            "INSERT INTO gateway_platform_health (platform, state, pid, host, updated_at) VALUES ($1, 'connected', $2, $3, 1)",
            [platform, DEAD_PID, host],
          );
        const health = new Map((await data.platformHealth()).map((h) => [h.platform, h]));
        expect(health.get("discord")).toMatchObject({ state: "connected", host: "other-machine" });
        expect(health.get("slack")).toMatchObject({
          state: "stopped",
          lastError: "the gateway process is gone",
        });

        const mcp = storeOf(gateway).mcpStates;
        const server = { server: "files", state: "ready", transport: "stdio", tools: 3, restarts: 0 };
        await mcp.record({ platform: "gateway", pid: DEAD_PID, startedAt: 1 }, [server]);
        await pool.query("UPDATE mcp_server_state SET host = 'other-machine', owner = owner || '-elsewhere'");
        await mcp.record({ platform: "gateway", pid: DEAD_PID, startedAt: 1 }, [server]);
        const states = await data.mcpStates();
        expect(states).toHaveLength(2);
        const byHost = new Map(states.map((r) => [r.host, r.state]));
        expect(byHost.get(hostname())).toBe("gone");
        expect(byHost.get("other-machine")).toBe("ready");

        const s = await storeOf(gateway).createSession({ source: "gateway:irc" });
        await data.board.publish({
          id: "mine",
          sessionId: s.id,
          kind: "clarify",
          source: "cli",
          question: {},
        });
        await data.board.publish({
          id: "theirs",
          sessionId: s.id,
          kind: "clarify",
          source: "cli",
          question: {},
        });
        await pool.query("UPDATE dashboard_asks SET pid = $1", [DEAD_PID]);
        await pool.query("UPDATE dashboard_asks SET host = 'other-machine' WHERE id = 'theirs'");
        expect((await data.waitingAsks()).map((a) => a.id)).toEqual(["theirs"]);
        expect((await data.board.get("mine"))?.state).toBe("withdrawn");
      } finally {
        await data.close();
        await gateway.close();
      }
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});
