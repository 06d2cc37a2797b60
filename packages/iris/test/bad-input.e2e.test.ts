// Bad input through the built `iris` command, as a user meets it: a config.yaml alias bomb is an
// exit 2 naming the file and line (it was exit 1 with nothing), and an `iris batch` line nested
// 20,000 levels deep is a malformed line with its number, never a stack trace, also on --resume.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, runIris } from "./helpers.js";

let h: Awaited<ReturnType<typeof fakeHome>>;
beforeEach(async () => {
  h = await fakeHome(true);
});
afterEach(async () => {
  await h.close();
});

const STACK = /\n\s+at |RangeError|ReferenceError/;

describe("bad input through the iris command", () => {
  it("a config.yaml alias bomb exits 2 naming the file and line", async () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [i, k] of ["b", "c", "d", "e", "f", "g", "h"].entries())
      lines.push(`${k}: &${k} [${Array(9).fill(`*${"abcdefg"[i]}`).join(",")}]`);
    const config = join(h.home.home, "config.yaml");
    writeFileSync(config, `${lines.join("\n")}\n`);
    const r = await runIris(["-p", "hi"], { env: { IRIS_HOME: h.home.home }, cwd: h.work });
    expect(r.stderr).not.toMatch(STACK);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${config}:2:8: YAML aliases expand to too much`);
    expect(h.fake.requests).toHaveLength(0);
  });

  it("iris batch: a line nested 20,000 deep is malformed with its number; --resume runs on", async () => {
    writeFileSync(
      join(h.home.home, "config.yaml"),
      `model: {provider: custom, name: fake-model}\nproviders: {custom: {base_url: '${h.fake.baseUrl}'}}\n`,
    );
    h.fake.setHandler(() => ({ text: "ok" }));
    const input = join(h.work, "in.jsonl");
    const deep = `{"prompt":"deep","x":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    writeFileSync(
      input,
      `${JSON.stringify({ prompt: "one" })}\n${deep}\n${JSON.stringify({ prompt: "three" })}\n`,
    );
    const out = join(h.work, "out.jsonl");
    const env = { IRIS_HOME: h.home.home };
    const first = await runIris(["batch", input, "--out", out], { env, cwd: h.work });
    expect(first.stderr).not.toMatch(STACK);
    expect(first.code).toBe(0);
    expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(2);
    const failed = readFileSync(join(h.work, "out.failed.jsonl"), "utf8").trim().split("\n");
    expect(failed.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({
        line: 2,
        status: "malformed",
        error: expect.stringMatching(/nested deeper than 128/),
      }),
    ]);
    const again = await runIris(["batch", input, "--out", out, "--resume"], { env, cwd: h.work });
    expect(again.stderr).not.toMatch(STACK);
    expect(again.code).toBe(0);
    expect(h.fake.requests).toHaveLength(2);
  });
});
