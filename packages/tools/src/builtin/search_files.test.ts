import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestContext } from "../fs/test-context.js";
import searchFiles from "./search_files.js";

const dir = mkdtempSync(path.join(tmpdir(), "iris-search-"));
const ctx = makeTestContext({ cwd: dir });

beforeAll(() => {
  const put = (rel: string, content: string | Buffer) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  };
  put("src/main.ts", "import x from 'y';\nconst needle = 1;\nexport default needle;\n");
  put("src/util/helper.ts", "// Needle in a comment\nexport const n = 2;\n");
  put("src/util/helper.test.ts", "const needle = 'test';\n");
  put("README.md", "The needle is documented here.\n");
  put("node_modules/pkg/index.js", "const needle = 'dependency';\n");
  put(".git/config", "needle = git\n");
  put("image.bin", Buffer.concat([Buffer.from("needle"), Buffer.from([0, 1, 2])]));
  for (let i = 0; i < 30; i++) put(`many/file${String(i).padStart(2, "0")}.txt`, "hit\nhit\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function search(args: Parameters<typeof searchFiles.execute>[0]) {
  return searchFiles.execute(args, ctx);
}

describe("search_files content mode", () => {
  it("finds matches as path:line: text, skipping node_modules, .git and binary files", async () => {
    const out = await search({ pattern: "needle" });
    expect((out as string).split("\n")).toEqual([
      "README.md:1: The needle is documented here.",
      "src/main.ts:2: const needle = 1;",
      "src/main.ts:3: export default needle;",
      "src/util/helper.test.ts:1: const needle = 'test';",
    ]);
  });

  it("honours ignore_case and a glob filter", async () => {
    const out = await search({ pattern: "needle", ignore_case: true, glob: "*.ts", path: "src/util" });
    expect((out as string).split("\n")).toEqual([
      "src/util/helper.test.ts:1: const needle = 'test';",
      "src/util/helper.ts:1: // Needle in a comment",
    ]);
  });

  it("caps the results and says so", async () => {
    const out = (await search({ pattern: "^hit$", max_results: 5 })) as string;
    const lines = out.split("\n");
    expect(lines).toHaveLength(6);
    expect(lines[5]).toMatch(/results capped at 5 matches/);
  });

  it("rejects an invalid regular expression clearly", async () => {
    expect(await search({ pattern: "foo(" })).toMatchObject({
      isError: true,
      content: expect.stringContaining("invalid regular expression"),
    });
  });

  it("reports no matches and missing paths", async () => {
    expect(await search({ pattern: "zzz-not-there" })).toContain("No matches found");
    expect(await search({ pattern: "x", path: "missing" })).toMatchObject({ isError: true });
  });
});

describe("search_files files mode", () => {
  it("finds files by base-name glob", async () => {
    const out = await search({ pattern: "*.ts", mode: "files" });
    expect((out as string).split("\n")).toEqual([
      "src/main.ts",
      "src/util/helper.test.ts",
      "src/util/helper.ts",
    ]);
  });

  it("finds files by path glob with ** and braces", async () => {
    const out = await search({ pattern: "src/**/*.{test.ts,md}", mode: "files" });
    expect(out).toBe("src/util/helper.test.ts");
  });

  it("caps file results", async () => {
    const out = (await search({ pattern: "*.txt", mode: "files", max_results: 3 })) as string;
    expect(out.split("\n")).toEqual([
      "many/file00.txt",
      "many/file01.txt",
      "many/file02.txt",
      "[results capped at 3 files; narrow the pattern, path or glob, or raise max_results]",
    ]);
  });
});
