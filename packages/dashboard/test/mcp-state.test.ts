// The overview's MCP servers are their live state, not the config. A running process (here an
// IrisProcess of the gateway with a real server-everything and a server that cannot start)
// records its servers' states in the store, and the overview shows them from its own connection;
// a process that died shows its servers gone; once it has closed, the dashboard checks the
// servers itself as `iris mcp list` does (a command that does not exist fails with its error; a
// disabled server says so), loaded after the overview's first screen.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DashboardData, IrisProcess, loadProfile, openStore } from "@iris/host";
import { tempDir } from "@iris/testkit";
import { everythingStdio } from "@iris/tools";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { loadAssets } from "../src/assets.js";
import { DashboardAuth } from "../src/auth.js";
import type { DashboardDeps } from "../src/deps.js";
import { overviewCards } from "../src/pages/overview.js";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

describe("overview: MCP servers' live state", () => {
  it("shows a server that fails to start as failed with its error, and a disabled one as disabled", async () => {
    const dir = tempDir("iris-dash-mcp");
    dirs.push(dir);
    mkdirSync(join(dir.path, "work"));
    writeFileSync(
      join(dir.path, "config.yaml"),
      JSON.stringify({
        model: { provider: "openai", name: "gpt-4o" },
        mcp_servers: {
          broken: { command: join(dir.path, "no-such-server") },
          off: { command: "true", enabled: false },
        },
      }),
    );
    const env = { IRIS_HOME: dir.path };
    const profile = loadProfile({ env, registerSecret: () => {} });
    if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
    const auth = new DashboardAuth("t".repeat(40));
    const login = auth.login("t".repeat(40));
    if (!login.ok) throw new Error("login refused");
    const deps: DashboardDeps = {
      profile,
      env,
      // Only the MCP partial is requested: it never reads the store.
      data: {} as DashboardData,
      auth,
      hosts: new Set(["dash.test"]),
      startedAt: Date.now(),
      version: "test",
    };
    const app = createApp(deps, loadAssets());
    const res = await app.request("/partials/mcp", {
      headers: { host: "dash.test", cookie: login.cookie.split(";")[0] ?? "", "hx-request": "true" },
    });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toMatch(/data-mcp="broken" data-state="failed"/);
    expect(body).toMatch(/no-such-server|ENOENT/);
    expect(body).toMatch(/data-mcp="off" data-state="disabled"/);
    // The overview itself only holds the place (a server may take seconds to start).
    const overview = (await overviewCards({ ...deps, data: fakeOverviewData() })).value;
    expect(overview).toContain('hx-get="/partials/mcp"');
  }, 60_000);
});

describe("overview: MCP servers as the running processes see them", () => {
  it("shows a live process's servers from the store, a dead one's as gone, and probes once none runs", async () => {
    const dir = tempDir("iris-dash-mcp-live");
    dirs.push(dir);
    mkdirSync(join(dir.path, "work"));
    const broken = {
      command: process.execPath,
      args: ["-e", "console.error('cannot reach the API'); process.exit(1)"],
    };
    writeFileSync(
      join(dir.path, "config.yaml"),
      JSON.stringify({
        model: { provider: "openai", name: "gpt-4o" },
        mcp_servers: { everything: everythingStdio(), broken },
      }),
    );
    const env = { IRIS_HOME: dir.path };
    const profile = loadProfile({ env, registerSecret: () => {} });
    if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
    const iris = await IrisProcess.open({ profile, platform: "gateway", env: {} });
    const data = await DashboardData.open(profile);
    try {
      const deps: DashboardDeps = {
        profile,
        env,
        data,
        auth: new DashboardAuth("t".repeat(40)),
        hosts: new Set(["dash.test"]),
        startedAt: Date.now(),
        version: "test",
      };
      const live = (await overviewCards(deps)).value;
      expect(live).toContain(`data-live-mcp="everything" data-platform="gateway" data-state="ready"`);
      expect(live).toMatch(
        /data-live-mcp="broken" data-platform="gateway" data-state="(restarting|starting|failed)"/,
      );
      expect(live).toContain("cannot reach the API");
      expect(live).toContain(`gateway (pid ${process.pid})`);
      // Every configured server is live somewhere: the dashboard starts none itself.
      expect(live).not.toContain('hx-get="/partials/mcp"');

      await iris.close();
      const closed = (await overviewCards(deps)).value;
      expect(closed).not.toContain("data-live-mcp");
      expect(closed).toContain('hx-get="/partials/mcp"');

      // A process that died without closing: its rows stay, shown gone.
      const dead = spawnSync(process.execPath, ["-e", ""]).pid ?? 0;
      const writer = openStore(profile.home.paths.db);
      await writer.mcpStates.record({ platform: "serve", pid: dead, startedAt: 1 }, [
        { server: "everything", state: "ready", transport: "stdio", tools: 12, restarts: 0 },
      ]);
      await writer.close();
      const crashed = (await overviewCards(deps)).value;
      expect(crashed).toContain(`data-live-mcp="everything" data-platform="serve" data-state="gone"`);
      expect(crashed).toContain(`the process (pid ${dead}) is gone`);
      expect(crashed).toContain('hx-get="/partials/mcp"');
    } finally {
      await iris.close();
      await data.close();
    }
  }, 120_000);
});

/** What overviewCards reads from the store, empty. */
function fakeOverviewData(): DashboardData {
  const zero = { costUsd: 0, calls: 0 };
  return {
    reads: { usageOnDays: () => zero },
    waitingAsks: () => [],
    runningTurns: () => [],
    platformHealth: () => [],
    mcpStates: () => [],
  } as unknown as DashboardData;
}
