// config.yaml as a user edits it with `iris config`: one typo does not lock them out (the config
// commands work on a file with errors, read-only commands run with a warning), and an edit changes
// only what it says, keeping the file's layout and so its line numbers.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runIris, type TempHome, tempHome } from "./helpers.js";

let home: TempHome;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());
const env = () => ({ IRIS_HOME: home.home });
const configFile = () => join(home.home, "config.yaml");

describe("a config.yaml with an unknown key", () => {
  const BROKEN = "model:\n  name: gpt-5\ncompresion:\n  threshold: 0.5\n";

  it("still lets the user list sessions, read and fix the config", async () => {
    writeFileSync(configFile(), BROKEN);
    const list = await runIris(["sessions", "list"], { env: env() });
    expect(list.code).toBe(0);
    expect(list.stderr).toMatch(/warning: .*config\.yaml:3:1: compresion: .*left out/);
    // The other commands that only read or list run too, each with the warning.
    for (const [args, out] of [
      [["usage"], /no sessions yet/],
      [["models", "--provider", "openai"], /openai\/gpt-/],
      [["skills", "list"], /./],
      [["tools"], /read_file/],
    ] as const) {
      const r = await runIris([...args], { env: env() });
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout).toMatch(out);
      expect(r.stderr).toMatch(/warning: .*config\.yaml:3:1: compresion: .*left out/);
    }
    const get = await runIris(["config", "get", "model.name"], { env: env() });
    expect(get.code).toBe(0);
    expect(get.stdout).toBe("gpt-5\n");
    const set = await runIris(["config", "set", "approvals.mode", "off"], { env: env() });
    expect(set.code).toBe(0);
    expect(set.stderr).toContain("still has problems");
    const unset = await runIris(["config", "unset", "compresion"], { env: env() });
    expect(unset.code).toBe(0);
    expect(readFileSync(configFile(), "utf8")).toBe("model:\n  name: gpt-5\napprovals:\n  mode: off\n");
    const clean = await runIris(["sessions", "list"], { env: env() });
    expect(clean.stderr).toBe("");
  });
});

describe("a config.yaml that is not valid YAML", () => {
  it("is named with its file, line and column by every command, read-only ones included", async () => {
    writeFileSync(configFile(), "model:\n  name: gpt-5\n approvals: [\n");
    for (const args of [
      ["sessions", "list"],
      ["config", "get", "model.name"],
      ["config", "set", "approvals.mode", "off"],
    ]) {
      const r = await runIris(args, { env: env() });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `${configFile()}:3:1: invalid YAML: All mapping items must start at the same column`,
      );
    }
    expect(readFileSync(configFile(), "utf8")).toBe("model:\n  name: gpt-5\n approvals: [\n");
  });
});

describe("iris config set", () => {
  it("keeps the file's layout: comments, spacing, flow maps, line numbers", async () => {
    const before =
      "# my settings\nmodel: {provider: openai, name: gpt-5}   # pinned\n\napprovals:\n  mode: manual    # ask me\n  allow: [recursive_delete]\n";
    writeFileSync(configFile(), before);
    const r = await runIris(["config", "set", "approvals.mode", "smart"], { env: env() });
    expect(r.code).toBe(0);
    expect(readFileSync(configFile(), "utf8")).toBe(before.replace("mode: manual", "mode: smart"));
    const added = await runIris(["config", "set", "compression.threshold", "0.6"], { env: env() });
    expect(added.code).toBe(0);
    const after = readFileSync(configFile(), "utf8");
    expect(after).toBe(`${before.replace("mode: manual", "mode: smart")}compression:\n  threshold: 0.6\n`);
    // An error names the line of the file as the user wrote it.
    const bad = await runIris(["config", "set", "approvals.mode", "sometimes"], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/config\.yaml:5:\d+/);
  });
});
