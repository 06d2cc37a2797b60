// `iris mcp list|test` and `iris skills install|list|show` as a user runs them: the built bin and
// a temp home, with the real server-everything from npm.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { everythingStdio } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runIris, tempHome } from "./helpers.js";

// Real server processes start slowly on a loaded machine: generous limits, no timing in the assertions.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let home: ReturnType<typeof tempHome>;
beforeEach(() => {
  home = tempHome();
  chmodSync(home.home, 0o700);
});
afterEach(() => home.cleanup());
const env = () => ({ IRIS_HOME: home.home });

describe("iris mcp", () => {
  it("lists each server's state and tools, tests one, and names a broken one's stderr", async () => {
    const broken = {
      command: process.execPath,
      args: ["-e", "console.error('bad credentials'); process.exit(2)"],
    };
    writeFileSync(
      join(home.home, "config.yaml"),
      JSON.stringify({ mcp_servers: { everything: everythingStdio(), broken } }),
    );
    const list = await runIris(["mcp", "list"], { env: env() });
    expect(list.code).toBe(1);
    expect(list.stdout).toMatch(/^everything {2}ready {2}stdio {2}\d+ tools$/m);
    expect(list.stdout).toContain("  mcp__everything__echo");
    expect(list.stdout).toMatch(/^broken {2}failed .*\n {2}last error: .*bad credentials/m);

    const one = await runIris(["mcp", "test", "everything"], { env: env() });
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/mcp__everything__echo {2}\S/);
    const doctor = await runIris(["doctor"], { env: env() });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/✗ MCP server broken: does not start: .*bad credentials/);
    expect(doctor.stdout).toMatch(/✓ MCP server everything: \d+ tools \(stdio\)/);
    // --offline starts no server: the broken one is not reported as failing, only as unchecked.
    const offline = await runIris(["doctor", "--offline"], { env: env() });
    expect(offline.stdout).not.toContain("does not start");
    expect(offline.stdout).toMatch(/MCP server broken: not started \(--offline\)/);
    expect(offline.stdout).toMatch(/MCP server everything: not started \(--offline\)/);
    const unknown = await runIris(["mcp", "test", "nope"], { env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no MCP server 'nope'");
  });
});

describe("iris skills", () => {
  it("installs a folder and a tarball, lists them, shows one, and refuses an invalid SKILL.md", async () => {
    const src = join(home.home, "src");
    mkdirSync(join(src, "deploy"), { recursive: true });
    writeFileSync(
      join(src, "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: Deploy the site\n---\nRun make deploy.\n",
    );
    writeFileSync(join(src, "deploy", "checklist.md"), "- tests green\n");
    mkdirSync(join(src, "notes"));
    writeFileSync(
      join(src, "notes", "SKILL.md"),
      "---\nname: notes\ndescription: Keep notes\nallowed_tools: [write_file]\n---\nWrite them down.\n",
    );
    execFileSync("tar", ["-czf", join(src, "notes.tgz"), "-C", src, "notes"]);
    mkdirSync(join(src, "bad"));
    writeFileSync(join(src, "bad", "SKILL.md"), "---\nname: bad\n---\nno description\n");

    expect((await runIris(["skills", "install", join(src, "deploy")], { env: env() })).code).toBe(0);
    expect((await runIris(["skills", "install", join(src, "notes.tgz")], { env: env() })).code).toBe(0);
    const bad = await runIris(["skills", "install", join(src, "bad")], { env: env() });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/SKILL\.md:\d+: 'description'/);

    const list = await runIris(["skills", "list"], { env: env(), cwd: home.home });
    expect(list.stdout).toContain("deploy  (profile)  Deploy the site");
    expect(list.stdout).toContain("notes  (profile)  Keep notes\n  pre-approves when loaded: write_file\n");
    const show = await runIris(["skills", "show", "deploy"], { env: env(), cwd: home.home });
    expect(show.stdout).toContain("Run make deploy.");
    expect(show.stdout).toContain("files: checklist.md");
  });
});
