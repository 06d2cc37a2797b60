import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "./logger.js";
import { clearSecrets, registerSecret } from "./redact.js";

afterEach(() => clearSecrets());

function lines(sink: string[]) {
  return sink.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("createLogger", () => {
  it("writes one JSON line per record, filtered by level, with bindings and children", () => {
    const out: string[] = [];
    const log = createLogger({ level: "info", sink: (l) => out.push(l), bindings: { pkg: "llm" } });
    log.debug("hidden");
    log.info("hello", { n: 1 });
    log.child({ session: "s1" }).warn("careful");
    expect(out.every((l) => l.endsWith("\n") && l.split("\n").length === 2)).toBe(true);
    const recs = lines(out);
    expect(recs).toHaveLength(2);
    expect(recs[0]).toMatchObject({ level: "info", msg: "hello", pkg: "llm", n: 1 });
    expect(recs[1]).toMatchObject({ level: "warn", msg: "careful", pkg: "llm", session: "s1" });
    expect(typeof recs[0]?.time).toBe("string");
    expect(log.isEnabled("debug")).toBe(false);
  });

  it("redacts messages and fields", () => {
    registerSecret("the-registered-key-1234");
    const out: string[] = [];
    const log = createLogger({ sink: (l) => out.push(l) });
    log.error("failed with the-registered-key-1234", {
      err: new Error("x-api-key: the-registered-key-1234"),
    });
    expect(out.join("")).not.toContain("the-registered-key-1234");
    expect(out.join("")).toContain("[REDACTED]");
  });

  it("appends to a file created with mode 0600, making its folder", () => {
    const dir = mkdtempSync(join(tmpdir(), "iris-log-"));
    try {
      const file = join(dir, "logs", "iris.log");
      const log = createLogger({ file });
      log.info("one");
      log.info("two");
      const recs = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(recs.map((r) => r.msg)).toEqual(["one", "two"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses stdout as a log file", () => {
    expect(() => createLogger({ file: "/dev/stdout" })).toThrow(/stdout/);
  });

  it("never writes to stdout: a real process logging at every level prints nothing there", () => {
    const here = fileURLToPath(new URL(".", import.meta.url));
    const script = `
      import { getLogger, createLogger } from ${JSON.stringify(resolve(here, "logger.ts"))};
      const g = getLogger({ pkg: "test" });
      g.warn("global warn"); g.error("global error");
      const l = createLogger({ level: "debug" });
      l.debug("d"); l.info("i"); l.warn("w"); l.error("e");
    `;
    const root = resolve(here, "../../../..");
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: root,
      env: { ...process.env, IRIS_LOG_LEVEL: "" },
      encoding: "utf8",
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("");
    const msgs = run.stderr
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).msg);
    expect(msgs).toEqual(["global warn", "global error", "d", "i", "w", "e"]);
  });
});
