import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exitCodeOf, formatReport } from "./report.js";
import { runDoctor } from "./run.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "iris-doctor-run-"));
  chmodSync(root, 0o700);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("runDoctor", () => {
  it("an invalid config.yaml is a finding naming the key and line, and the other checks still run", async () => {
    writeFileSync(join(root, "config.yaml"), "model:\n  name: 42\n", { mode: 0o600 });
    const { findings } = await runDoctor({ env: { IRIS_HOME: root } });
    const cfg = findings.find((f) => f.subject === "config.yaml" && f.status === "fail");
    expect(cfg?.details?.[0]).toMatch(/config\.yaml:2:\d+: model\.name: expected string/);
    expect(findings.some((f) => f.subject === "gateway")).toBe(true);
    expect(exitCodeOf(findings)).toBe(1);
  });

  it("a missing profile folder is reported and not created", async () => {
    const missing = join(root, "nothing-here");
    const { findings } = await runDoctor({ env: { IRIS_HOME: missing } });
    expect(findings[0]).toMatchObject({ status: "fail", subject: "profile folder" });
    expect(existsSync(missing)).toBe(false);
  });

  it("the report marks each finding, indents its fix and ends with the count", () => {
    const text = formatReport("t", [
      { status: "ok", subject: "a", message: "fine", fix: "never shown" },
      { status: "warn", subject: "b", message: "hm", fix: "do b" },
      { status: "fail", subject: "c", message: "bad", fix: "do c", details: ["why"] },
    ]);
    expect(text).toBe(
      "t\n✓ a: fine\n! b: hm\n    fix: do b\n✗ c: bad\n    why\n    fix: do c\n1 problem found, 1 warning\n",
    );
  });
});
