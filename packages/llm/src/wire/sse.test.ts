import { describe, expect, it } from "vitest";
import { SseOverflow, SseParser } from "./sse.js";

const enc = new TextEncoder();

function parseAll(chunks: (string | Uint8Array)[]) {
  const p = new SseParser();
  const events = chunks.flatMap((c) => p.push(typeof c === "string" ? enc.encode(c) : c));
  return [...events, ...p.end()];
}

describe("SseParser", () => {
  it("parses LF, CRLF and CR line ends alike", () => {
    for (const nl of ["\n", "\r\n", "\r"]) {
      const events = parseAll([`data: a${nl}${nl}data: b${nl}${nl}`]);
      expect(events.map((e) => e.data)).toEqual(["a", "b"]);
    }
  });

  it("handles a CRLF split between two chunks as one line end", () => {
    const events = parseAll(["data: a\r", "\n\r", "\ndata: b\r\n\r\n"]);
    expect(events.map((e) => e.data)).toEqual(["a", "b"]);
  });

  it("joins multi-line data with LF and keeps event and id fields", () => {
    const events = parseAll(["event: delta\nid: 7\ndata: one\ndata:two\ndata\n\n"]);
    expect(events).toEqual([{ event: "delta", id: "7", data: "one\ntwo\n" }]);
  });

  it("ignores comments, unknown fields and blank lines without data", () => {
    const events = parseAll([": keep-alive\n\nretry: 100\nfoo: bar\n\n\n\ndata: x\n\n"]);
    expect(events).toEqual([{ data: "x" }]);
  });

  it("keeps the last id for later events and resets the event type", () => {
    const events = parseAll(["id: 1\nevent: a\ndata: x\n\ndata: y\n\n"]);
    expect(events).toEqual([
      { event: "a", id: "1", data: "x" },
      { id: "1", data: "y" },
    ]);
  });

  it("reassembles a UTF-8 character split across chunks", () => {
    const bytes = enc.encode("data: 한국어 😀\n\n");
    const chunks = Array.from(bytes, (b) => Uint8Array.of(b));
    expect(parseAll(chunks)).toEqual([{ data: "한국어 😀" }]);
  });

  it("strips a leading BOM and only one space after the colon", () => {
    expect(parseAll(["\uFEFFdata:  two spaces\n\n"])).toEqual([{ data: " two spaces" }]);
  });

  it("discards an event cut off before its blank line", () => {
    expect(parseAll(['data: complete\n\ndata: {"cut'])).toEqual([{ data: "complete" }]);
    expect(parseAll(["data: complete\n\ndata: done\n"])).toEqual([{ data: "complete" }]);
  });

  it("assembles one long line fed in many small chunks", () => {
    const p = new SseParser();
    const piece = "x".repeat(10);
    p.push("data: ");
    let early = 0;
    for (let i = 0; i < 20_000; i++) early += p.push(piece).length;
    expect(early).toBe(0);
    const [event] = p.push("\n\n");
    expect(event?.data.length).toBe(200_000);
  });
});

describe("SseParser limits", () => {
  it("refuses a line longer than the cap, even fed in small pieces", () => {
    const p = new SseParser({ maxLineChars: 100, maxEventChars: 1000 });
    expect(() => {
      for (let i = 0; i < 20; i++) p.push("data: 0123456789");
    }).toThrow(SseOverflow);
  });
  it("refuses an event whose data lines add up past the cap", () => {
    const p = new SseParser({ maxLineChars: 100, maxEventChars: 250 });
    expect(() => p.push(`${"data: 0123456789012345678901234567890123456789\n".repeat(10)}\n`)).toThrow(
      /SSE event larger than/,
    );
  });
  it("keeps counting per event: many events each under the cap pass", () => {
    const p = new SseParser({ maxLineChars: 100, maxEventChars: 60 });
    const events = p.push("data: 01234567890123456789\n\n".repeat(50));
    expect(events).toHaveLength(50);
  });
});
