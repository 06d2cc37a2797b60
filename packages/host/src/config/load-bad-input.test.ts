// config.yaml that is hostile or odd (SPEC K2), through the loader every front end uses: an alias
// bomb is a clear error at its file and line (not a crash), aliases within reason still work, and
// YAML's .nan/.inf say what they are instead of "expected number, got number".
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatConfigErrors, loadConfig } from "./load.js";

const temps: string[] = [];
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});
function writeConfig(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "iris-cfg-bad-"));
  temps.push(dir);
  const p = join(dir, "config.yaml");
  writeFileSync(p, text);
  return p;
}
function failure(text: string): { path: string; text: string } {
  const path = writeConfig(text);
  const r = loadConfig(path);
  if (r.ok) throw new Error("expected the config to be rejected");
  return { path, text: formatConfigErrors(r.errors) };
}

const BOMB = [
  "model: {provider: openai, name: gpt-4.1}",
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...["b", "c", "d", "e", "f", "g", "h", "i"].map(
    (k, i) => `${k}: &${k} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(",")}]`,
  ),
  "",
].join("\n");

describe("config.yaml: bad input", () => {
  it("an alias bomb is a clear error naming the file and line, not a crash", () => {
    const { path, text } = failure(BOMB);
    expect(text).toBe(
      `${path}:3:8: YAML aliases expand to too much (more than 100 nodes; an alias bomb?): write the values out or use fewer aliases`,
    );
  });

  it("nesting thousands of levels deep is an error at its line, in words", () => {
    const { path, text } = failure(
      `model: {provider: openai, name: gpt-4.1}\nx: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`,
    );
    expect(text).toMatch(new RegExp(`^${path}:2:\\d+: invalid YAML: nested too deeply`));
  });

  it("aliases within reason still work", () => {
    const path = writeConfig(
      [
        "model: {provider: openai, name: gpt-4.1}",
        "providers:",
        "  one: &p {base_url: 'http://127.0.0.1:9/v1', api_mode: chat_completions}",
        "  two: *p",
        "  three: *p",
        "",
      ].join("\n"),
    );
    const r = loadConfig(path);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.config.providers.three?.base_url).toBe("http://127.0.0.1:9/v1");
  });

  it(".nan and .inf name themselves, with the key and line", () => {
    const { path, text } = failure(
      [
        "model: {provider: openai, name: gpt-4.1}",
        "agent:",
        "  max_rounds: .nan",
        "  time_budget_seconds: .inf",
        "  cost_budget_usd: -.Inf",
        "",
      ].join("\n"),
    );
    expect(text.split("\n")).toEqual([
      `${path}:3:15: agent.max_rounds: expected a finite number, got .nan (not a number)`,
      `${path}:4:24: agent.time_budget_seconds: expected a finite number, got .inf (infinity)`,
      `${path}:5:20: agent.cost_budget_usd: expected a finite number, got -.inf (minus infinity)`,
    ]);
  });
});
