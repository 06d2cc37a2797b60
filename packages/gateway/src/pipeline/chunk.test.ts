import { describe, expect, it } from "vitest";
import { splitMessage, utf8Bytes, utf16Length } from "./chunk.js";

const strip = (parts: string[]) => parts.join("");

describe("splitMessage", () => {
  it("leaves a short text whole", () => {
    expect(splitMessage("hello", 10)).toEqual(["hello"]);
  });

  it("keeps every part within the limit and the text whole and in order", () => {
    const text = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    const parts = splitMessage(text, 100);
    expect(parts.length).toBeGreaterThan(10);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(100);
    expect(strip(parts)).toBe(text);
  });

  it("splits a long many-line text (segmented in windows) whole, CRLF and emoji kept together", () => {
    const text = Array.from({ length: 3000 }, (_, i) => `줄 ${i} 👩‍👩‍👧 text\r\n`).join("");
    const parts = splitMessage(text, 20_000);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(20_000);
      expect(p.startsWith("\n")).toBe(false);
    }
    expect(strip(parts)).toBe(text);
  });

  it("prefers line ends, then spaces", () => {
    const parts = splitMessage(`${"a".repeat(60)}\n${"b".repeat(60)}`, 80);
    expect(parts[0]).toBe(`${"a".repeat(60)}\n`);
    const spaced = splitMessage(`${"a".repeat(60)} ${"b".repeat(60)}`, 80);
    expect(spaced[0]).toBe(`${"a".repeat(60)} `);
  });

  it("never cuts a surrogate pair or an emoji sequence", () => {
    const text = "😀👩‍👩‍👧".repeat(50);
    const parts = splitMessage(text, 33);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(33);
      expect(/[\uD800-\uDBFF]$/.test(p)).toBe(false);
      expect(/^[\uDC00-\uDFFF]/.test(p)).toBe(false);
      expect(p.endsWith("\u200D")).toBe(false);
    }
    expect(strip(parts)).toBe(text);
  });

  it("never cuts a Hangul syllable, also in UTF-8 bytes and built from jamo", () => {
    const syllables = "안녕하세요 반갑습니다 ".repeat(40);
    const parts = splitMessage(syllables, 50, utf8Bytes);
    for (const p of parts) {
      expect(utf8Bytes(p)).toBeLessThanOrEqual(50);
      expect(Buffer.from(p, "utf8").toString("utf8")).toBe(p);
    }
    expect(strip(parts)).toBe(syllables);
    // Conjoining jamo: 한 = U+1112 U+1161 U+11AB, one grapheme of three code units.
    const jamo = "\u1112\u1161\u11AB".repeat(30);
    const jparts = splitMessage(jamo, 10, utf16Length);
    for (const p of jparts) expect(p.length % 3).toBe(0);
    expect(strip(jparts)).toBe(jamo);
  });

  it("closes a code block at a cut and reopens it with its language", () => {
    const code = Array.from({ length: 40 }, (_, i) => `console.log(${i});`).join("\n");
    const text = `Here:\n\`\`\`js\n${code}\n\`\`\`\nDone.`;
    const parts = splitMessage(text, 200);
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(200);
      // Every part has balanced fences.
      expect((p.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    for (const p of parts.slice(1, -1)) expect(p.startsWith("```js\n")).toBe(true);
    // Taking the added fences out gives the text back.
    const rebuilt = parts
      .map((p, i) => {
        let s = p;
        if (i > 0 && s.startsWith("```js\n")) s = s.slice("```js\n".length);
        if (i < parts.length - 1) s = s.replace(/\n?```$/, "");
        return s;
      })
      .join("");
    expect(rebuilt.replace(/\n/g, "")).toBe(text.replace(/\n/g, ""));
  });
});
