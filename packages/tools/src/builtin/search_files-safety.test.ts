// Issue 13, item 6: a backtracking pattern cannot freeze the process, Ctrl-C (the turn's abort)
// always stops a search, and the walk follows .gitignore and skips build folders.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestContext } from "../fs/test-context.js";
import searchFiles from "./search_files.js";

const dir = mkdtempSync(path.join(tmpdir(), "iris-search-safety-"));

beforeAll(() => {
  const put = (rel: string, content: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  };
  put("evil.txt", `${"a".repeat(40)}!\n`);
  put(".gitignore", "*.log\n/generated/\nsecret-*\n!secret-ok.txt\n");
  put("app.log", "needle\n");
  put("generated/out.ts", "needle\n");
  put("src/generated/keep.ts", "needle\n");
  put("secret-a.txt", "needle\n");
  put("secret-ok.txt", "needle\n");
  put("sub/.gitignore", "local.txt\n");
  put("sub/local.txt", "needle\n");
  put("sub/kept.txt", "needle\n");
  for (const d of ["dist", "target", ".venv", "__pycache__"]) put(`${d}/x.txt`, "needle\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("search_files safety", () => {
  it("answers a catastrophic pattern with an error instead of freezing", async () => {
    const started = Date.now();
    const out = await searchFiles.execute(
      { pattern: "(a+)+$", path: "evil.txt" },
      makeTestContext({ cwd: dir }),
    );
    const elapsed = Date.now() - started;
    expect(out).toMatchObject({ isError: true, content: expect.stringMatching(/too slow/) });
    // On the main thread this pattern runs for hours; the bound is loose on purpose.
    expect(elapsed).toBeLessThan(15_000);
  });

  it("stops when the turn is cancelled, even mid-match", async () => {
    const controller = new AbortController();
    const run = searchFiles.execute(
      { pattern: "(a|a)+$", path: "evil.txt" },
      makeTestContext({ cwd: dir, signal: controller.signal }),
    );
    // Whether the abort lands before or during the match, the search ends with it.
    setImmediate(() => controller.abort(new Error("user_cancelled")));
    await expect(run).rejects.toThrow("user_cancelled");
  });

  it("follows .gitignore files and skips build folders", async () => {
    const out = (await searchFiles.execute({ pattern: "needle" }, makeTestContext({ cwd: dir }))) as string;
    expect(out.split("\n").sort()).toEqual([
      "secret-ok.txt:1: needle",
      "src/generated/keep.ts:1: needle",
      "sub/kept.txt:1: needle",
    ]);
  });
});
