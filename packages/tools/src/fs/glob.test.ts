import { describe, expect, it } from "vitest";
import { compileGlob } from "./glob.js";

describe("compileGlob", () => {
  const cases: Array<[string, string, boolean]> = [
    ["*.ts", "src/a.ts", true],
    ["*.ts", "src/a.tsx", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/x/a.ts", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/x/y/a.ts", true],
    ["**/test/*.js", "a/test/b.js", true],
    ["*.{js,ts}", "b.js", true],
    ["*.{js,ts}", "b.py", false],
    ["file?.txt", "file1.txt", true],
    ["file?.txt", "file12.txt", false],
    ["[ab].md", "a.md", true],
    ["[!ab].md", "a.md", false],
    ["a+b(1).txt", "a+b(1).txt", true],
  ];
  for (const [glob, p, expected] of cases) {
    it(`${glob} ${expected ? "matches" : "does not match"} ${p}`, () => {
      expect(compileGlob(glob)(p)).toBe(expected);
    });
  }
});
