// The profile's queue settings (config `queue:`): the URL variable follows the engine unless
// url_env names one, a wrong engine is an error at its key and line, and a missing URL is an
// error that names the key and the variable before anything is opened.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatConfigErrors } from "../config/load.js";
import { loadProfile, type Profile } from "../config/profile.js";
import { openProfileQueue, QueueConfigError, queueSettings } from "./job-queue.js";

const temps: string[] = [];
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

function profileWith(config: string, env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), "iris-queue-cfg-"));
  temps.push(home);
  writeFileSync(join(home, "config.yaml"), config);
  return loadProfile({ env: { IRIS_HOME: home, ...env }, registerSecret: () => undefined });
}

function ok(config: string, env: Record<string, string> = {}): Profile {
  const p = profileWith(config, env);
  if (!p.ok) throw new Error(formatConfigErrors(p.errors));
  return p;
}

describe("queue settings", () => {
  it("reads the URL from the engine's variable, or the one url_env names", () => {
    expect(queueSettings(ok("", { IRIS_DATABASE_URL: "postgres://db/x" }))).toEqual({
      backend: "postgres",
      urlEnv: "IRIS_DATABASE_URL",
      url: "postgres://db/x",
    });
    expect(
      queueSettings(ok("queue: { backend: redis }\n", { IRIS_REDIS_URL: "redis://r:6379" })),
    ).toMatchObject({
      backend: "redis",
      urlEnv: "IRIS_REDIS_URL",
      url: "redis://r:6379",
    });
    expect(queueSettings(ok("queue: { url_env: JOBS }\n", { JOBS: "postgres://j/y" })).url).toBe(
      "postgres://j/y",
    );
  });

  it("uses a Postgres store's own variable when the queue names none", () => {
    const team = "store: { backend: postgres, url_env: TEAM_DB }\n";
    expect(queueSettings(ok(team, { TEAM_DB: "postgres://team/db" }))).toEqual({
      backend: "postgres",
      urlEnv: "TEAM_DB",
      url: "postgres://team/db",
    });
    // Named, or on Redis, the queue's own variable wins.
    expect(queueSettings(ok(`${team}queue: { url_env: JOBS }\n`, { TEAM_DB: "x", JOBS: "y" })).url).toBe("y");
    expect(queueSettings(ok(`${team}queue: { backend: redis }\n`, {})).urlEnv).toBe("IRIS_REDIS_URL");
  });

  it("rejects an unknown engine at its key and line", () => {
    const p = profileWith("model: { provider: openai }\nqueue:\n  backend: mysql\n");
    expect(p.ok).toBe(false);
    if (p.ok) return;
    const text = formatConfigErrors(p.errors);
    expect(text).toMatch(/queue\.backend/);
    expect(text).toMatch(/:3\b/);
  });

  it("names the key and the variable when the URL is missing", async () => {
    const err = await openProfileQueue(ok("queue: { backend: redis }\n"), "batch").catch((e: Error) => e);
    expect(err).toBeInstanceOf(QueueConfigError);
    expect((err as Error).message).toMatch(/queue\.url_env: IRIS_REDIS_URL is not set/);
  });
});
