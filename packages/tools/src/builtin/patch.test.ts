import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { makeTestContext } from "../fs/test-context.js";
import patchTool from "./patch.js";

const dir = mkdtempSync(path.join(tmpdir(), "iris-patch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = makeTestContext({ cwd: dir });
const file = path.join(dir, "code.ts");
const source = [
  "function add(a, b) {",
  "  return a + b;",
  "}",
  "",
  "function sub(a, b) {",
  "  return a - b;",
  "}",
  "",
  "const total = add(1, 2);",
  "const other = add(3, 4);",
  "",
].join("\n");

beforeEach(() => writeFileSync(file, source));

async function patch(args: Parameters<typeof patchTool.execute>[0]) {
  return patchTool.execute(args, ctx);
}

describe("patch", () => {
  it("replaces a unique match", async () => {
    const out = await patch({
      path: "code.ts",
      old_string: "  return a - b;",
      new_string: "  return a - b - 0;",
    });
    expect(out).toBe(`Replaced 1 occurrence in ${file} (first at line 6).`);
    expect(readFileSync(file, "utf8")).toBe(source.replace("a - b;", "a - b - 0;"));
  });

  it("refuses an ambiguous match and lists the lines", async () => {
    const out = await patch({ path: "code.ts", old_string: "add(", new_string: "plus(" });
    expect(out).toMatchObject({
      isError: true,
      content: expect.stringMatching(/occurs 3 times .*\(lines 1, 9, 10\).*replace_all/s),
    });
    expect(readFileSync(file, "utf8")).toBe(source);
  });

  it("replaces every match with replace_all", async () => {
    const out = await patch({ path: "code.ts", old_string: "add(", new_string: "plus(", replace_all: true });
    expect(out).toContain("Replaced 3 occurrences");
    expect(readFileSync(file, "utf8")).not.toContain("add(");
  });

  it("shows the closest region with line numbers when the text is missing", async () => {
    const out = await patch({
      path: "code.ts",
      old_string: "function sub(a, b) {\n    return a - b;\n}",
      new_string: "x",
    });
    expect(out).toMatchObject({ isError: true });
    const text = (out as { content: string }).content;
    expect(text).toContain("closest region (lines 5-7");
    expect(text).toContain("     5|function sub(a, b) {\n     6|  return a - b;\n     7|}");
    expect(readFileSync(file, "utf8")).toBe(source);
  });

  it("matches text written with \\n in a CRLF file and keeps CRLF", async () => {
    writeFileSync(file, "one\r\ntwo\r\nthree\r\n");
    await patch({ path: "code.ts", old_string: "one\ntwo", new_string: "1\n2" });
    expect(readFileSync(file, "utf8")).toBe("1\r\n2\r\nthree\r\n");
  });

  it("treats replacement text literally ($& is not special)", async () => {
    await patch({ path: "code.ts", old_string: "const total", new_string: "const $&" });
    expect(readFileSync(file, "utf8")).toContain("const $& = add(1, 2);");
  });

  it("points out read_file line-number prefixes copied into old_string", async () => {
    const out = await patch({ path: "code.ts", old_string: "     5|function sub(a, b) {", new_string: "x" });
    expect(out).toMatchObject({ isError: true, content: expect.stringContaining("line-number prefixes") });
  });

  it("explains a missing file and identical strings", async () => {
    expect(await patch({ path: "nope.ts", old_string: "a", new_string: "b" })).toMatchObject({
      isError: true,
      content: expect.stringContaining("not found"),
    });
    expect(await patch({ path: "code.ts", old_string: "add", new_string: "add" })).toMatchObject({
      isError: true,
      content: expect.stringContaining("identical"),
    });
  });
});
