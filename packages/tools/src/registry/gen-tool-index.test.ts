import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../../../scripts/gen-tool-index.mjs", import.meta.url));
const tool = (name: string) =>
  `import { defineTool } from "../define.js";\nexport default defineTool({ name: "${name}" } as never);\n`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A temp copy of the layout: <tmp>/src/builtin/*.ts and <tmp>/src/builtin-index.generated.ts. */
function tempTools(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), "iris-gen-index-"));
  dirs.push(root);
  const dir = join(root, "src", "builtin");
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const out = join(root, "src", "builtin-index.generated.ts");
  const run = (...extra: string[]) =>
    spawnSync(process.execPath, [script, "--dir", dir, "--out", out, ...extra], { encoding: "utf8" });
  return { dir, out, run };
}

describe("scripts/gen-tool-index.mjs", () => {
  it("writes sorted lazy loaders for tool files only", () => {
    const t = tempTools({
      "write_file.ts": tool("write_file"),
      "read_file.ts": tool("read_file"),
      "read_file.test.ts": 'import "vitest";\nexport default 1;\n',
      "_helpers.ts": "export const x = 1;\n",
    });
    expect(t.run().status).toBe(0);
    const text = readFileSync(t.out, "utf8");
    expect(text).toContain('"read_file": () => import("./builtin/read_file.js"),');
    expect(text.indexOf('"read_file"')).toBeLessThan(text.indexOf('"write_file"'));
    expect(text).not.toContain("test");
    expect(text).not.toContain("_helpers");
  });

  it("--check passes when current and fails with a clear message when a tool file was added", () => {
    const t = tempTools({ "clarify.ts": tool("clarify") });
    expect(t.run().status).toBe(0);
    expect(t.run("--check").status).toBe(0);

    writeFileSync(join(t.dir, "new_tool.ts"), tool("new_tool"));
    const stale = t.run("--check");
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain("stale");
    expect(stale.stderr).toContain("new_tool");
    expect(stale.stderr).toContain("node scripts/gen-tool-index.mjs");
    expect(readFileSync(t.out, "utf8")).not.toContain("new_tool");

    expect(t.run().status).toBe(0);
    expect(t.run("--check").status).toBe(0);
  });

  it("--check fails when a listed file was removed or the index is missing", () => {
    const t = tempTools({ "a.ts": tool("a"), "b.ts": tool("b") });
    expect(t.run("--check").status).toBe(1);
    t.run();
    rmSync(join(t.dir, "b.ts"));
    const stale = t.run("--check");
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain("listed but gone: b");
  });
});
