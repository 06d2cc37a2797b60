import { describe, expect, it } from "vitest";
import { hashKey, parseInput } from "./input.js";

const lines = (...objs: unknown[]) =>
  `${objs.map((o) => (typeof o === "string" ? o : JSON.stringify(o))).join("\n")}\n`;

describe("batch input", () => {
  it("keeps prompt, id, system, cwd, toolsets and model apart and copies every other field as metadata", () => {
    const p = parseInput(
      lines({
        id: 7,
        prompt: "hi",
        system: "be terse",
        cwd: "/w",
        toolsets: "file, web",
        model: "m",
        topic: "x",
        n: 2,
      }),
    );
    expect(p.malformed).toEqual([]);
    expect(p.items).toEqual([
      {
        key: "7",
        line: 1,
        id: "7",
        prompt: "hi",
        system: "be terse",
        cwd: "/w",
        toolsets: ["file", "web"],
        model: "m",
        metadata: { topic: "x", n: 2 },
      },
    ]);
  });

  it("keys identical lines without an id by hash and occurrence, so duplicates stay two items", () => {
    const same = JSON.stringify({ prompt: "same" });
    const p = parseInput(lines(same, { prompt: "other" }, same));
    const keys = p.items.map((i) => i.key);
    expect(keys[0]).toBe(hashKey(same, 1));
    expect(keys[2]).toBe(hashKey(same, 2));
    expect(new Set(keys).size).toBe(3);
    // The key does not depend on the position: a line added in front changes nothing.
    const shifted = parseInput(lines({ prompt: "new first" }, same, { prompt: "other" }, same));
    expect(shifted.items.map((i) => i.key).slice(1)).toEqual(keys);
  });

  it("reports malformed lines with their line number and keeps going", () => {
    const p = parseInput(
      lines(
        { prompt: "ok 1" },
        "{not json",
        { prompt: 42 },
        { id: "a" },
        "[1,2]",
        "",
        { prompt: "   " },
        { id: "dup", prompt: "x" },
        { id: "dup", prompt: "y" },
        { prompt: "ok 2" },
      ),
    );
    expect(p.items.map((i) => i.prompt)).toEqual(["ok 1", "x", "ok 2"]);
    expect(p.malformed.map((m) => [m.line, m.error])).toEqual([
      [2, expect.stringMatching(/^not JSON/)],
      [3, expect.stringMatching(/^prompt: /)],
      [4, "prompt: required (a string)"],
      [5, "not a JSON object"],
      [7, "prompt: must not be empty"],
      [9, 'duplicate id "dup" (first on line 8)'],
    ]);
    const keys = [...p.items.map((i) => i.key), ...p.malformed.map((m) => m.key)];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("--max-items keeps the first N items and still knows every key of the file", () => {
    const p = parseInput(lines({ prompt: "a" }, "bad", { prompt: "b" }, { prompt: "c" }, "bad2"), {
      maxItems: 2,
    });
    expect(p.items.map((i) => i.prompt)).toEqual(["a", "b"]);
    expect(p.malformed.map((m) => m.line)).toEqual([2]);
    expect(p.allKeys.size).toBe(5);
  });
});
