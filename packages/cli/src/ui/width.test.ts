import { describe, expect, it } from "vitest";
import { displayWidth, padToWidth, truncateToWidth } from "./width.js";

describe("display width", () => {
  it("counts CJK as two columns and ASCII as one", () => {
    expect(displayWidth("abc")).toBe(3);
    expect(displayWidth("한국어")).toBe(6);
    expect(displayWidth("日本語テキスト")).toBe(14);
    expect(displayWidth("中文ab")).toBe(6);
    expect(displayWidth("\u001b[1mbold\u001b[0m")).toBe(4);
  });
  it("truncates by columns without splitting characters or surrogate pairs", () => {
    expect(truncateToWidth("한국어 검색 테스트", 7)).toBe("한국어…");
    expect(displayWidth(truncateToWidth("한국어 검색 테스트", 7))).toBeLessThanOrEqual(7);
    const emoji = "😀😀😀😀";
    const cut = truncateToWidth(emoji, 5);
    expect(cut).toBe("😀😀…");
    expect(Buffer.from(cut, "utf8").toString("utf8")).toBe(cut);
    expect(truncateToWidth("short", 10)).toBe("short");
  });
  it("pads to a column count", () => {
    expect(padToWidth("한", 4)).toBe("한  ");
  });
});
