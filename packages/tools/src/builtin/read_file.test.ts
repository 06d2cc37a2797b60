import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTestContext } from "../fs/test-context.js";
import readFileTool, { MAX_FILE_BYTES } from "./read_file.js";

const dir = mkdtempSync(path.join(tmpdir(), "iris-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = makeTestContext({ cwd: dir });

async function read(args: Parameters<typeof readFileTool.execute>[0]) {
  return readFileTool.execute(args, ctx);
}

describe("read_file", () => {
  it("numbers lines and resolves relative paths against the working directory", async () => {
    writeFileSync(path.join(dir, "a.txt"), "alpha\r\nbeta\ngamma\n");
    expect(await read({ path: "a.txt" })).toBe("     1|alpha\n     2|beta\n     3|gamma");
  });

  it("follows the task's working directory after a cd", async () => {
    mkdirSync(path.join(dir, "sub"));
    writeFileSync(path.join(dir, "sub", "inner.txt"), "inside\n");
    const moved = makeTestContext({ cwd: dir, taskId: "read-file-cd" });
    moved.workspace.cwds.set(moved.taskId, path.join(dir, "sub"));
    expect(await readFileTool.execute({ path: "inner.txt" }, moved)).toBe("     1|inside");
    expect(await read({ path: "inner.txt" })).toMatchObject({ isError: true });
  });

  it("pages with offset and limit and says where to continue", async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    writeFileSync(path.join(dir, "many.txt"), lines.join("\n"));
    const out = (await read({ path: "many.txt", offset: 11, limit: 5 })) as string;
    expect(out.split("\n")).toEqual([
      "    11|line 11",
      "    12|line 12",
      "    13|line 13",
      "    14|line 14",
      "    15|line 15",
      "[15 more lines; continue with offset 16]",
    ]);
    expect(await read({ path: "many.txt", offset: 26 })).not.toContain("more lines");
    expect(await read({ path: "many.txt", offset: 31 })).toMatchObject({
      isError: true,
      content: expect.stringContaining("has 30 lines"),
    });
  });

  it("cuts very long lines", async () => {
    writeFileSync(path.join(dir, "long.txt"), "x".repeat(5000));
    const out = (await read({ path: "long.txt" })) as string;
    expect(out).toContain("[3000 chars cut]");
  });

  it("describes a file that is not UTF-8 by its type and size instead of sending its bytes", async () => {
    writeFileSync(path.join(dir, "latin1.txt"), Buffer.from("caf\xe9 cr\xe8me\n", "latin1"));
    const latin = await read({ path: "latin1.txt" });
    expect(latin).toMatchObject({ isError: true, content: expect.stringContaining("binary data, 11 bytes") });
    expect(JSON.stringify(latin)).not.toContain("\ufffd");
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(2000, 7),
    ]);
    writeFileSync(path.join(dir, "pic.png"), png);
    expect(await read({ path: "pic.png" })).toMatchObject({
      content: expect.stringContaining("PNG image, 2.0 KB (2,008 bytes)"),
    });
    writeFileSync(path.join(dir, "ok.txt"), "한국어 텍스트\n");
    expect(await read({ path: "ok.txt" })).toContain("한국어 텍스트");
  });

  it("refuses binary files", async () => {
    writeFileSync(path.join(dir, "bin.dat"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    expect(await read({ path: "bin.dat" })).toMatchObject({
      isError: true,
      content: expect.stringContaining("binary"),
    });
  });

  it("refuses huge files and points at search_files", async () => {
    const huge = path.join(dir, "huge.log");
    closeSync(openSync(huge, "w"));
    truncateSync(huge, MAX_FILE_BYTES + 1); // sparse: no real disk use
    expect(await read({ path: huge })).toMatchObject({
      isError: true,
      content: expect.stringMatching(/over the \d+-byte limit.*search_files/s),
    });
  });

  it("explains missing files, folders and empty files", async () => {
    expect(await read({ path: "nope.txt" })).toMatchObject({
      isError: true,
      content: expect.stringContaining("not found"),
    });
    expect(await read({ path: "." })).toMatchObject({
      isError: true,
      content: expect.stringContaining("directory"),
    });
    writeFileSync(path.join(dir, "empty.txt"), "");
    expect(await read({ path: "empty.txt" })).toContain("is empty");
  });
});
