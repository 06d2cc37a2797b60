// The overview's MCP servers are their live state, not the config: each server is started as
// `iris mcp list` does and shown with its state and last error (a command that does not exist
// fails with its error; a disabled server says so), loaded after the overview's first screen.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type DashboardData, loadProfile } from "@iris/host";
import { tempDir } from "@iris/testkit";
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
    const overview = overviewCards({ ...deps, data: fakeOverviewData() }).value;
    expect(overview).toContain('hx-get="/partials/mcp"');
  }, 60_000);
});

/** What overviewCards reads from the store, empty. */
function fakeOverviewData(): DashboardData {
  const zero = { costUsd: 0, calls: 0 };
  return {
    reads: { usageOnDays: () => zero },
    waitingAsks: () => [],
    runningTurns: () => [],
    platformHealth: () => [],
  } as unknown as DashboardData;
}
