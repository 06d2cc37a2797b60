import { describe, expect, it } from "vitest";
import { capLines, capOutput, HeadTailCollector, utf8CompleteLength } from "./output-caps.js";

describe("HeadTailCollector", () => {
  it("summarises raw binary output by kind and size instead of sending mojibake", () => {
    const c = new HeadTailCollector(100);
    c.push(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x80, 0x81]));
    c.push(Buffer.alloc(300, 0x9c));
    const text = c.text();
    expect(text).toMatch(/^\[binary output: gzip archive, 308 bytes; not shown/);
    expect(text).not.toContain("\ufffd");
  });

  it("keeps everything under the cap", () => {
    const c = new HeadTailCollector(100);
    c.push(Buffer.from("hello "));
    c.push(Buffer.from("world"));
    expect(c.text()).toBe("hello world");
  });

  it("keeps head and tail and says how much was cut", () => {
    const c = new HeadTailCollector(100);
    for (let i = 0; i < 1000; i++) c.push(Buffer.from(`${String(i).padStart(4, "0")}\n`));
    const text = c.text();
    expect(text.startsWith("0000\n")).toBe(true);
    expect(text.endsWith("0999\n")).toBe(true);
    expect(text).toMatch(/\[\.\.\. 4900 bytes cut; output was 5000 bytes, 1000 lines \.\.\.\]/);
  });

  it("never splits a UTF-8 character at either cut", () => {
    const c = new HeadTailCollector(101);
    // 3-byte characters pushed one byte at a time so cuts land mid-character.
    const bytes = Buffer.from("가".repeat(500));
    for (const b of bytes) c.push(Buffer.from([b]));
    const text = c.text();
    expect(text).not.toContain("\uFFFD");
    const [head, tail] = text.split(/\n\[\.\.\. \d+ bytes cut.*\]\n/);
    expect(head).toMatch(/^가+$/);
    expect(tail).toMatch(/^가+$/);
    const cut = Number(/(\d+) bytes cut/.exec(text)?.[1]);
    expect(Buffer.byteLength(head as string) + Buffer.byteLength(tail as string) + cut).toBe(1500);
  });

  it("utf8CompleteLength drops only an incomplete final character", () => {
    const euro = Buffer.from("a€"); // 61 e2 82 ac
    expect(utf8CompleteLength(euro)).toBe(4);
    expect(utf8CompleteLength(euro.subarray(0, 3))).toBe(1);
    expect(utf8CompleteLength(euro.subarray(0, 2))).toBe(1);
  });
});

describe("capLines", () => {
  it("cuts long lines with a marker and keeps surrogate pairs whole", () => {
    const line = "😀".repeat(10); // 20 UTF-16 units
    const out = capLines(line, 10, 5);
    expect(out).toBe(`😀😀 … [${20 - 4} chars cut]`);
  });

  it("keeps first and last lines when there are too many", () => {
    const text = Array.from({ length: 100 }, (_, i) => `line${i}`).join("\n");
    const out = capLines(text, 10, 100).split("\n");
    expect(out).toHaveLength(11);
    expect(out[0]).toBe("line0");
    expect(out[4]).toMatch(/^\[\.\.\. \d+ bytes cut; output was \d+ bytes, 99 lines \.\.\.\]$/);
    expect(out[10]).toBe("line99");
  });

  it("capOutput applies all caps", () => {
    const out = capOutput(Buffer.from("x".repeat(10_000)), {
      maxBytes: 1000,
      maxLines: 10,
      maxLineLength: 50,
    });
    expect(out.length).toBeLessThan(400);
    expect(out).toContain("bytes cut");
    expect(out).toContain("chars cut");
  });
});
