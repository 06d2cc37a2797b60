import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { DurableJsonl, JsonlFileError, readJsonlRows } from "./jsonl-file.js";

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});
const file = () => {
  const d = tempDir("iris-jsonl-");
  dirs.push(d);
  return join(d.path, "out.jsonl");
};
const anyRow = (v: unknown) => v as { k: number };

describe("durable JSONL", () => {
  it("appends whole lines in call order and reads them back", async () => {
    const path = file();
    const w = new DurableJsonl(path);
    const first = w.append({ k: 1 });
    await w.append({ k: 2 });
    await first;
    await w.close();
    expect(readFileSync(path, "utf8")).toBe('{"k":1}\n{"k":2}\n');
    expect(readJsonlRows(path, anyRow, { repair: false })).toEqual({
      rows: [{ k: 1 }, { k: 2 }],
      tornBytes: 0,
    });
  });

  it("cuts a torn last line off the file so the next append starts clean", async () => {
    const path = file();
    writeFileSync(path, '{"k":1}\n{"k":2}\n{"k":3,"long');
    const read = readJsonlRows(path, anyRow, { repair: true });
    expect(read.rows).toEqual([{ k: 1 }, { k: 2 }]);
    expect(read.tornBytes).toBe(12);
    expect(readFileSync(path, "utf8")).toBe('{"k":1}\n{"k":2}\n');
    const w = new DurableJsonl(path);
    await w.append({ k: 3 });
    await w.close();
    expect(readJsonlRows(path, anyRow, { repair: true }).rows).toHaveLength(3);
  });

  it("treats a complete-looking last line without its newline as torn", () => {
    const path = file();
    writeFileSync(path, '{"k":1}\n{"k":2}');
    expect(readJsonlRows(path, anyRow, { repair: true })).toEqual({ rows: [{ k: 1 }], tornBytes: 7 });
  });

  it("refuses a bad line before the last one, naming it", () => {
    const path = file();
    writeFileSync(path, '{"k":1}\ngarbage\n');
    appendFileSync(path, '{"k":3}\n');
    expect(() => readJsonlRows(path, anyRow, { repair: true })).toThrow(JsonlFileError);
    expect(() => readJsonlRows(path, anyRow, { repair: true })).toThrow(/out\.jsonl:2: not a JSON row/);
  });
});
