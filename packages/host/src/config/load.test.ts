import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ConfigError, formatConfigErrors, loadConfig, parseConfigText } from "./load.js";

const temps: string[] = [];
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});
function writeConfig(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "iris-cfg-"));
  temps.push(dir);
  const p = join(dir, "config.yaml");
  writeFileSync(p, text);
  return p;
}
function errorsOf(text: string): ConfigError[] {
  const r = parseConfigText(text, "config.yaml");
  if (r.ok) throw new Error("expected the config to be rejected");
  return r.errors;
}

describe("loadConfig", () => {
  it("a missing file means every default", () => {
    const r = loadConfig(join(tmpdir(), "no-such-dir-iris", "config.yaml"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.agent.max_rounds).toBe(90);
    expect(r.config.agent.session_budget_seconds).toBe(7200);
    expect(r.config.approvals).toEqual({
      mode: "manual",
      allow: [],
      timeout_seconds: 60,
      non_interactive: "deny",
    });
    expect(r.config.compression.enabled).toBe(true);
    expect(r.config.memory.enabled).toBe(true);
  });

  it("applies defaults beside the values a file gives", () => {
    const r = loadConfig(
      writeConfig("model:\n  provider: openai\n  name: gpt-5\ncompression:\n  threshold: 0.7\n"),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.model).toEqual({ provider: "openai", name: "gpt-5" });
    expect(r.config.compression).toMatchObject({
      enabled: true,
      threshold: 0.7,
      target_ratio: 0.2,
      protect_last_n: 20,
    });
    expect(r.config.fallback_providers).toEqual([]);
  });

  it("an empty file or one with only comments is all defaults", () => {
    expect(parseConfigText("", "c").ok).toBe(true);
    expect(parseConfigText("# nothing yet\n", "c").ok).toBe(true);
  });

  it("an unknown key is an error naming the key, its line and a suggestion", () => {
    const errs = errorsOf("model:\n  name: x\napprovals:\n  mode: manual\n  alow: [rm]\n");
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ line: 5, column: 3, key: "approvals.alow" });
    expect(errs[0]!.message).toContain('did you mean "allow"');
  });

  it("an unknown top-level key is reported at its line", () => {
    const errs = errorsOf("# header\n\nmodle:\n  name: x\n");
    expect(errs[0]).toMatchObject({ line: 3, column: 1, key: "modle" });
    expect(errs[0]!.message).toContain('"model"');
  });

  it("an MCP server entry that is neither stdio nor HTTP is named with its line", () => {
    const errs = errorsOf("mcp_servers:\n  gh:\n    comand: npx\n");
    expect(errs[0]).toMatchObject({ line: 3 });
    expect(errs[0]?.key).toMatch(/^mcp_servers\.gh/);
  });

  it("a wrong type names the key, the line and what is expected", () => {
    const errs = errorsOf("model:\n  provider: openai\n  name: 12\n");
    expect(errs).toHaveLength(1);
    expect(formatConfigErrors(errs)).toBe("config.yaml:3:9: model.name: expected string, got number");
  });

  it("a wrong enum value lists the choices", () => {
    const errs = errorsOf("approvals:\n  mode: sometimes\n");
    expect(errs[0]).toMatchObject({ line: 2, key: "approvals.mode" });
    expect(errs[0]!.message).toBe('expected one of "manual", "smart", "off", got "sometimes"');
  });

  it("errors inside lists carry the index and a missing key points at its item", () => {
    const errs = errorsOf("fallback_providers:\n  - provider: a\n    model: m\n  - provider: b\n");
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ line: 4, key: "fallback_providers[1].model" });
    expect(errs[0]!.message).toBe("missing required key (expected string)");
  });

  it("bad YAML reports the parser's line and message", () => {
    const errs = errorsOf("model:\n  name: x\n bad: [\n");
    expect(errs[0]!.line).toBe(3);
    expect(errs[0]!.message).toMatch(/^invalid YAML: /);
    expect(formatConfigErrors(errs)).toMatch(/^config\.yaml:3:\d+: invalid YAML: /);
  });

  it("duplicate keys are a YAML error at the second one", () => {
    const errs = errorsOf("model: {name: a}\nmodel: {name: b}\n");
    expect(errs[0]!.line).toBe(2);
  });

  it("a top level that is not a mapping is rejected", () => {
    expect(errorsOf("- a\n- b\n")[0]!.message).toContain("expected a mapping");
  });

  it("never echoes a secret value in an error", () => {
    const errs = errorsOf("providers:\n  x:\n    api_key: [sk-abcdefghijklmnop]\n");
    expect(formatConfigErrors(errs)).not.toContain("sk-abc");
    expect(errs[0]!.key).toBe("providers.x.api_key");
  });

  it("the formatter prints one line per error, sorted by line", () => {
    const errs = errorsOf("agent:\n  max_rounds: -1\nmodel:\n  name: 3\n");
    const lines = formatConfigErrors(errs).split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^config\.yaml:2:\d+: agent\.max_rounds: expected a number >= 0, got -1$/);
    expect(lines[1]).toMatch(/^config\.yaml:4:\d+: model\.name: /);
  });
});

describe("a garbage config.yaml", () => {
  it("shows the first 20 errors, then a count", () => {
    const garbage = Array.from({ length: 500 }, (_, i) => `key_${i}: ${i}`).join("\n");
    const r = parseConfigText(garbage, "config.yaml");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.length).toBeGreaterThan(20);
    const lines = formatConfigErrors(r.errors).split("\n");
    expect(lines).toHaveLength(21);
    expect(lines[20]).toBe(`… and ${r.errors.length - 20} more errors (fix the ones above first)`);
  });
});
