// The bundled table must match its checked-in inputs (CI runs the same --check).
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "@iris/testkit";
import { describe, expect, it } from "vitest";

const root = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../../..");
const script = join(root, "scripts/gen-catalogue.mjs");
const data = join(root, "packages/llm/catalogue-data");
const generated = join(root, "packages/llm/src/catalogue/models.generated.ts");

function gen(...args: string[]) {
  return spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: "utf8" });
}

describe("scripts/gen-catalogue.mjs", () => {
  it("--check passes: models.generated.ts is up to date with catalogue-data/", () => {
    const run = gen("--check");
    expect(run.stderr).toContain("up to date");
    expect(run.status).toBe(0);
  });

  it("--check fails when an input drifts, and regeneration follows the inputs", () => {
    const dir = tempDir("iris-gen-catalogue");
    try {
      for (const f of ["snapshot.json", "corrections.json"]) copyFileSync(join(data, f), join(dir.path, f));
      const out = join(dir.path, "models.generated.ts");
      copyFileSync(generated, out);
      expect(gen("--check", "--data", dir.path, "--out", out).status).toBe(0);

      const snapshot = JSON.parse(readFileSync(join(dir.path, "snapshot.json"), "utf8"));
      snapshot.providers.anthropic["claude-sonnet-4-6"].contextWindow = 123_456;
      writeFileSync(join(dir.path, "snapshot.json"), JSON.stringify(snapshot));
      const drift = gen("--check", "--data", dir.path, "--out", out);
      expect(drift.status).toBe(1);
      expect(drift.stderr).toContain("out of date");

      expect(gen("--data", dir.path, "--out", out).status).toBe(0);
      expect(readFileSync(out, "utf8")).toContain('"claude-sonnet-4-6": [123456,');
      expect(gen("--check", "--data", dir.path, "--out", out).status).toBe(0);
    } finally {
      dir.cleanup();
    }
  });

  it("rejects a correction without a reason", () => {
    const dir = tempDir("iris-gen-catalogue");
    try {
      copyFileSync(join(data, "snapshot.json"), join(dir.path, "snapshot.json"));
      const bad = { corrections: [{ provider: "openai", model: "gpt-5.5", set: { contextWindow: 1 } }] };
      writeFileSync(join(dir.path, "corrections.json"), JSON.stringify(bad));
      const run = gen("--data", dir.path, "--out", join(dir.path, "out.ts"));
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("correction openai/gpt-5.5: provider, model and why are required");
    } finally {
      dir.cleanup();
    }
  });

  it("keeps the snapshot small", () => {
    expect(readFileSync(join(data, "snapshot.json")).length).toBeLessThan(1.5 * 1024 * 1024);
  });
});
