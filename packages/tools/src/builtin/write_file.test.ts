import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTestContext } from "../fs/test-context.js";
import writeFileTool from "./write_file.js";

const dir = mkdtempSync(path.join(tmpdir(), "iris-write-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = makeTestContext({ cwd: dir });

describe("write_file", () => {
  it("honours an aborted signal: the file is left as it was and no temp file stays", async () => {
    const file = path.join(dir, "kept.txt");
    writeFileSync(file, "original");
    const controller = new AbortController();
    controller.abort();
    const aborted = makeTestContext({ cwd: dir, signal: controller.signal });
    const out = await writeFileTool.execute({ path: file, content: "new" }, aborted);
    expect(out).toMatchObject({ isError: true });
    expect(JSON.stringify(out)).toContain("the turn was aborted");
    expect(readFileSync(file, "utf8")).toBe("original");
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("creates parent folders and reports the bytes written", async () => {
    const out = await writeFileTool.execute({ path: "a/b/c.txt", content: "héllo\n" }, ctx);
    expect(out).toBe(`Wrote 7 bytes to ${path.join(dir, "a/b/c.txt")}.`);
    expect(readFileSync(path.join(dir, "a/b/c.txt"), "utf8")).toBe("héllo\n");
  });

  it("replaces an existing file atomically, keeping its mode and leaving no temp file", async () => {
    const file = path.join(dir, "script.sh");
    writeFileSync(file, "old");
    chmodSync(file, 0o750);
    const inodeBefore = statSync(file).ino;
    await writeFileTool.execute({ path: file, content: "new" }, ctx);
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(statSync(file).mode & 0o777).toBe(0o750);
    // A rename swaps in a new inode; an in-place write would keep the old one.
    expect(statSync(file).ino).not.toBe(inodeBefore);
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("writes through a symlink to its target", async () => {
    const target = path.join(dir, "target.txt");
    const link = path.join(dir, "link.txt");
    writeFileSync(target, "old");
    symlinkSync(target, link);
    await writeFileTool.execute({ path: link, content: "via link" }, ctx);
    expect(readFileSync(target, "utf8")).toBe("via link");
  });

  it("refuses to overwrite a folder", async () => {
    expect(await writeFileTool.execute({ path: "a", content: "x" }, ctx)).toMatchObject({
      isError: true,
      content: expect.stringContaining("is a directory"),
    });
  });
});
