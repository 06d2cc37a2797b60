// Failure edges as a user meets them (issue 12): the built `iris` bin, a temp home, fake LLM
// servers with faults. Stalls, a port nothing listens on, cooldowns that outlive the process.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "@iris/host";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runIris, tempHome } from "./helpers.js";

let primary: FakeLlm;
let backup: FakeLlm;
let home: ReturnType<typeof tempHome>;
beforeEach(async () => {
  primary = await startFakeLlm();
  backup = await startFakeLlm();
  home = tempHome();
  chmodSync(home.home, 0o700);
});
afterEach(async () => {
  await Promise.all([primary.close(), backup.close()]);
  home.cleanup();
});

const env = () => ({ IRIS_HOME: home.home });
const writeConfig = (lines: string[]) =>
  writeFileSync(join(home.home, "config.yaml"), `${lines.join("\n")}\n`, { mode: 0o600 });

/** Primary `main` and fallback `spare`, both OpenAI-compatible, on the two fake servers. */
function twoRoutes(primaryUrl: string, extra: string[] = []): void {
  writeConfig([
    "model: {provider: main, name: fake-model}",
    "providers:",
    `  main: {base_url: '${primaryUrl}', api_mode: chat_completions${extra.length ? `, ${extra.join(", ")}` : ""}}`,
    `  spare: {base_url: '${backup.baseUrl}', api_mode: chat_completions}`,
    "fallback_providers:",
    "  - {provider: spare, model: fake-model}",
  ]);
}

async function closedPortUrl(): Promise<string> {
  const gone = await startFakeLlm();
  const url = gone.baseUrl;
  await gone.close();
  return url;
}

describe("dead endpoints", () => {
  it("a refused port fails at once with 'nothing listens at URL', without retries", async () => {
    const url = await closedPortUrl();
    const started = Date.now();
    const r = await runIris(["-p", "hi", "--provider", "custom", "--base-url", url, "--model", "m"], {
      env: env(),
    });
    const elapsed = Date.now() - started;
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`nothing listens at ${url}`);
    expect(r.stderr).not.toContain("retrying");
    // The old schedule retried 2 + 5 + 12 s; process start-up alone stays well below this bound.
    expect(elapsed).toBeLessThan(10_000);
  });

  it("a refused primary falls back to the next route in the same call", async () => {
    twoRoutes(await closedPortUrl());
    backup.enqueue({ text: "from the spare" });
    const r = await runIris(["-p", "hi"], { env: env() });
    expect(r.stderr).toContain("nothing listens at");
    expect(r.stdout).toBe("from the spare\n");
    expect(r.code).toBe(0);
  });

  it("a stalled route falls back within its configured first-byte timeout", async () => {
    twoRoutes(primary.baseUrl, ["timeouts: {first_byte_seconds: 0.5}"]);
    primary.enqueue({ fault: "stall" });
    backup.enqueue({ text: "from the spare" });
    const r = await runIris(["-p", "hi"], { env: env() });
    expect(r.stdout).toBe("from the spare\n");
    expect(r.stderr).toContain("timed out waiting for main/fake-model");
    // A stall with a fallback at hand is not retried on the stalled route.
    expect(primary.requests).toHaveLength(1);
    expect(r.code).toBe(0);
  });
});

describe("a stall mid-stream", () => {
  it("falls back within the configured idle timeout; the stalled partial text is discarded", async () => {
    twoRoutes(primary.baseUrl, ["timeouts: {idle_seconds: 0.5}"]);
    primary.enqueue({
      fault: "stall",
      reply: { text: "partial words that never finish", chunkSize: 4 },
      afterEvents: 3,
    });
    backup.enqueue({ text: "from the spare" });
    const r = await runIris(["-p", "hi"], { env: env() });
    expect(r.stdout).toBe("from the spare\n");
    expect(primary.requests).toHaveLength(1);
    expect(r.code).toBe(0);
    const store = openStore(join(home.home, "state.db"));
    const [session] = await store.listSessions({ limit: 1 });
    const stored = JSON.stringify((await store.activePath(session!.id)).map((n) => n.message));
    await store.close();
    expect(stored).not.toContain("partial words");
  });
});

describe("failed turns leave a valid history (H1)", () => {
  it("a 401 turn, then a good one: no two user messages in a row; doctor sees the shape", async () => {
    twoRoutes(primary.baseUrl);
    writeConfig([
      "model: {provider: main, name: fake-model}",
      "providers:",
      `  main: {base_url: '${primary.baseUrl}', api_mode: chat_completions}`,
    ]);
    primary.enqueue({ fault: "status", status: 401 });
    const failed = await runIris(["-p", "one"], { env: env() });
    expect(failed.code).toBe(1);
    const before = await runIris(["doctor"], { env: env() });
    expect(before.stdout).toContain("ends with a user message that got no answer");
    primary.enqueue({ text: "two answered" });
    const good = await runIris(["-p", "two", "-c"], { env: env() });
    expect(good.stdout).toBe("two answered\n");
    const store = openStore(join(home.home, "state.db"));
    const [session] = await store.listSessions({ limit: 1 });
    const roles = (await store.activePath(session!.id)).map((n) => n.role);
    await store.close();
    expect(roles).toEqual(["user", "assistant", "user", "assistant"]);
    expect(primary.violations).toEqual([]);
  });
});

describe("route cooldowns outlive the process", () => {
  it("a cooldown set by one run is honoured by the next, and doctor shows it", async () => {
    twoRoutes(primary.baseUrl);
    primary.enqueue({ fault: "status", status: 404 });
    backup.enqueue({ text: "first answer" }, { text: "second answer" });
    const first = await runIris(["-p", "one"], { env: env() });
    expect(first.stdout).toBe("first answer\n");
    expect(primary.requests).toHaveLength(1);

    const second = await runIris(["-p", "two"], { env: env() });
    expect(second.stdout).toBe("second answer\n");
    expect(second.stderr).toContain("cooling down");
    // The primary was not asked again while it cools down.
    expect(primary.requests).toHaveLength(1);

    const store = openStore(join(home.home, "state.db"));
    const rows = await store.routeCooldowns.listActive(Date.now());
    await store.close();
    expect(rows.map((r) => r.routeKey)).toEqual([`main/fake-model@${primary.baseUrl}`]);

    const doctor = await runIris(["doctor"], { env: env() });
    expect(doctor.stdout).toMatch(
      /^! route cooldown: route main\/fake-model@\S+ is cooling down for \d+ s more/m,
    );
    // Both fake servers listen: the endpoint probe says so.
    expect(doctor.stdout).toContain(`✓ endpoint ${primary.baseUrl}: answers (main route)`);
    expect(doctor.stdout).not.toMatch(/^✗ (endpoint|stored history|session)/m);
  });

  it("doctor fails a configured endpoint where nothing listens", async () => {
    const url = await closedPortUrl();
    twoRoutes(url);
    const doctor = await runIris(["doctor"], { env: env() });
    expect(doctor.stdout).toContain(`✗ endpoint ${url}: does not answer: connection refused`);
    expect(doctor.code).toBe(1);
  });
});
