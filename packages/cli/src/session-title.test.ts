import { expect, it } from "vitest";
import { titleFrom } from "./session-title.js";

it("takes the first line without Markdown and cuts long ones at a word", () => {
  expect(titleFrom("\n# Fix the *flaky* test\nmore detail")).toBe("Fix the flaky test");
  expect(titleFrom("```\ncode\n```")).toBe("code");
  const long = titleFrom("please refactor the authentication middleware so that tokens are refreshed lazily");
  expect(long.endsWith("…")).toBe(true);
  expect([...long].length).toBeLessThanOrEqual(61);
  expect(long).toMatch(/^please refactor the authentication middleware so that\b/);
  expect(titleFrom("한국어로 된 아주 긴 제목입니다 ".repeat(6)).length).toBeLessThanOrEqual(61);
});
