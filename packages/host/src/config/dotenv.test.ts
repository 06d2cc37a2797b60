import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDotenv, mergeEnv, parseDotenv } from "./dotenv.js";

const temps: string[] = [];
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});
function writeEnv(text: string, mode: number): string {
  const dir = mkdtempSync(join(tmpdir(), "iris-env-"));
  temps.push(dir);
  const p = join(dir, ".env");
  writeFileSync(p, text);
  chmodSync(p, mode);
  return p;
}

describe("parseDotenv", () => {
  it("reads plain, exported, quoted and commented lines", () => {
    const { values, warnings } = parseDotenv(
      [
        "# a comment",
        "",
        "OPENAI_API_KEY=sk-plain-value",
        "export ANTHROPIC_API_KEY = spaced  ",
        'QUOTED="a # not a comment"',
        "SINGLE='lit\\n$HOME'",
        'ESCAPED="line1\\nline2\\t\\"q\\""',
        "INLINE=value # trailing comment",
        "HASH=abc#def",
        "EMPTY=",
        'MULTI="-----BEGIN KEY-----',
        "abc",
        '-----END KEY-----"',
        "DUP=first",
        "DUP=second",
      ].join("\n"),
    );
    expect(warnings).toEqual([]);
    expect(values).toEqual({
      OPENAI_API_KEY: "sk-plain-value",
      ANTHROPIC_API_KEY: "spaced",
      QUOTED: "a # not a comment",
      SINGLE: "lit\\n$HOME",
      ESCAPED: 'line1\nline2\t"q"',
      INLINE: "value",
      HASH: "abc#def",
      EMPTY: "",
      MULTI: "-----BEGIN KEY-----\nabc\n-----END KEY-----",
      DUP: "second",
    });
  });

  it("handles CRLF files and a BOM", () => {
    expect(parseDotenv("\uFEFFA=1\r\nB=2\r\n").values).toEqual({ A: "1", B: "2" });
  });

  it("warns about bad lines by number without quoting their text", () => {
    const { values, warnings } = parseDotenv(
      'GOOD=1\nnot a pair sk-secretvalue\nBAD-KEY=x\nOPEN="never closed\n',
      "p/.env",
    );
    expect(values).toEqual({ GOOD: "1" });
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^p\/\.env:2: ignored/);
    expect(warnings[1]).toMatch(/^p\/\.env:3: ignored/);
    expect(warnings[2]).toMatch(/^p\/\.env:4: ignored OPEN/);
    expect(warnings.join("\n")).not.toContain("sk-secret");
  });
});

describe("loadDotenv", () => {
  it("warns when the file is readable by group or others", () => {
    const open = loadDotenv(writeEnv("K=v\n", 0o644));
    expect(open.values).toEqual({ K: "v" });
    expect(open.warnings[0]).toMatch(/readable by other users \(mode 644\).*chmod 600/);
    const closed = loadDotenv(writeEnv("K=v\n", 0o600));
    expect(closed.warnings).toEqual([]);
  });

  it("a missing file is empty and silent", () => {
    expect(loadDotenv(join(tmpdir(), "nope-iris", ".env"))).toEqual({ values: {}, warnings: [] });
  });
});

describe("mergeEnv", () => {
  it("the profile's .env wins over the process environment, except IRIS_HOME", () => {
    const { env, warnings } = mergeEnv(
      { OPENAI_API_KEY: "stale-shell", PATH: "/bin", IRIS_HOME: "/h", UNSET: undefined },
      {
        OPENAI_API_KEY: "from-profile",
        IRIS_HOME: "/elsewhere",
        EXTRA: "x",
        IRIS_DATABASE_URL: "postgres://db/iris",
        IRIS_LOG_LEVEL: "debug",
      },
    );
    expect(env).toEqual({
      OPENAI_API_KEY: "from-profile",
      PATH: "/bin",
      IRIS_HOME: "/h",
      EXTRA: "x",
      IRIS_DATABASE_URL: "postgres://db/iris",
      IRIS_LOG_LEVEL: "debug",
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("IRIS_HOME");
  });
});
