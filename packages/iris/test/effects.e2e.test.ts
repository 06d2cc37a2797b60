// SPEC D4 end to end: the built `iris` is killed with SIGKILL while a mutating tool runs; the
// resumed session does not run it again, tells the user and the model effect_outcome_uncertain,
// and `iris effects list|resolve` settle it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
// A unique sleep length marks the orphaned command, so cleanup kills only ours.
const tag = `3600.${process.pid}${Date.now() % 100000}`;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
});
afterEach(async () => {
  // The terminal tool runs commands in their own process group: SIGKILL of iris leaves them.
  spawnSync("pkill", ["-KILL", "-f", `sleep ${tag}`]);
  await fake.close();
  home.cleanup();
});

const env = () => ({ IRIS_HOME: home.home });
const args = () => routeArgs(fake.baseUrl, "chat_completions");

/** Resolves once `path` exists (the tool's first visible side effect). */
async function fileAppears(path: string, signal: AbortSignal): Promise<void> {
  while (!existsSync(path)) {
    if (signal.aborted) throw new Error(`${path} never appeared`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("restart-safe side effects", () => {
  it("never re-runs a mutating call cut off by SIGKILL; resume reports it and resolve settles it", async () => {
    const work = join(home.home, "work");
    mkdirSync(work, { recursive: true });
    const marker = join(work, "marker.txt");
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: `echo ran >> marker.txt; sleep ${tag}` } }] },
      { text: "should never be asked for" },
    );

    const gaveUp = AbortSignal.timeout(30_000);
    const killed = await runIris(["-p", "write the marker", ...args()], {
      env: env(),
      cwd: work,
      onSpawn: (child) => {
        void fileAppears(marker, gaveUp).then(
          () => child.kill("SIGKILL"),
          () => child.kill("SIGKILL"),
        );
      },
    });
    expect(killed.signal).toBe("SIGKILL");
    expect(readFileSync(marker, "utf8")).toBe("ran\n");
    expect(fake.requests).toHaveLength(1);

    const listed = await runIris(["sessions", "list"], { env: env() });
    const sessionId = listed.stdout.trim().split(/\s+/)[0] ?? "";
    expect(sessionId).not.toBe("");

    const before = await runIris(["effects", "list"], { env: env() });
    expect(before.code).toBe(0);
    expect(before.stdout).toMatch(/terminal/);
    const effectId = before.stdout.split(/\s+/)[0] ?? "";

    // The queued text answers the resumed turn; the tool call is not asked again.
    fake.enqueue({ text: "Understood." });
    const resumed = await runIris(["-p", "go on", "--resume", sessionId, ...args()], {
      env: env(),
      cwd: work,
    });
    expect(resumed.stderr).toContain("effect_outcome_uncertain");
    expect(resumed.code).toBe(0);
    expect(readFileSync(marker, "utf8")).toBe("ran\n");
    const sent = fake.requests[fake.requests.length - 1]!.rawBody.toString("utf8");
    expect(sent).toContain("effect_outcome_uncertain");
    expect(sent).toContain(effectId);
    expect(fake.violations).toEqual([]);

    const shown = await runIris(["sessions", "show", sessionId], { env: env() });
    expect(shown.stdout).toContain("effect_outcome_uncertain");

    const stillOpen = await runIris(["effects", "list"], { env: env() });
    expect(stillOpen.stdout.split(/\s+/)[0]).toBe(effectId);
    expect(stillOpen.stdout).toContain(`session ${sessionId}`);

    const noEvidence = await runIris(["effects", "resolve", effectId, "applied"], { env: env() });
    expect(noEvidence.code).toBe(2);
    const resolved = await runIris(
      ["effects", "resolve", effectId, "applied", "--evidence", "marker.txt has one line"],
      { env: env() },
    );
    expect(resolved.stderr).toBe("");
    expect(resolved.code).toBe(0);
    expect(resolved.stdout).toContain("resolved as applied");

    const after = await runIris(["effects", "list"], { env: env() });
    expect(after.stdout).toBe("no unresolved effects\n");
    const all = await runIris(["effects", "list", "--all"], { env: env() });
    expect(all.stdout).toContain("evidence: marker.txt has one line");

    const twice = await runIris(["effects", "resolve", effectId, "not-applied", "--evidence", "x"], {
      env: env(),
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/already resolved as applied/);
    const unknown = await runIris(["effects", "resolve", "nope-nope", "applied", "--evidence", "x"], {
      env: env(),
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no effect 'nope-nope'/);
  }, 90_000);
});
