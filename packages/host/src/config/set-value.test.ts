import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "./load.js";
import { addToConfigList, setConfigValue, unsetConfigValue } from "./set-value.js";

const temps: string[] = [];
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), "iris-set-"));
  temps.push(d);
  return d;
}

const ORIGINAL = `# My Iris settings
model:
  provider: openai # the usual one
  name: gpt-5

approvals:
  mode: manual
  # things I trust
  allow:
    - recursive_delete
`;

describe("setConfigValue", () => {
  it("changes one value and keeps every comment", () => {
    const p = join(dir(), "config.yaml");
    writeFileSync(p, ORIGINAL);
    expect(setConfigValue(p, "model.name", "gpt-5-mini")).toEqual({ ok: true, changed: true });
    const text = readFileSync(p, "utf8");
    expect(text).toContain("# My Iris settings");
    expect(text).toContain("provider: openai # the usual one");
    expect(text).toContain("# things I trust");
    expect(text).toContain("name: gpt-5-mini");
    const r = loadConfig(p);
    expect(r.ok && r.config.model.name).toBe("gpt-5-mini");
  });

  it("refuses a value the schema rejects and leaves the file as it was", () => {
    const p = join(dir(), "config.yaml");
    writeFileSync(p, ORIGINAL);
    const r = setConfigValue(p, "approvals.mode", "sometimes");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]!.key).toBe("approvals.mode");
    expect(readFileSync(p, "utf8")).toBe(ORIGINAL);
  });

  it("creates a missing file with mode 0600", () => {
    const p = join(dir(), "sub", "config.yaml");
    expect(setConfigValue(p, ["model", "provider"], "anthropic").ok).toBe(true);
    expect(statSync(p).mode & 0o777).toBe(0o600);
    const r = loadConfig(p);
    expect(r.ok && r.config.model.provider).toBe("anthropic");
  });
});

describe("addToConfigList", () => {
  it("appends to approvals.allow once, keeping comments", () => {
    const p = join(dir(), "config.yaml");
    writeFileSync(p, ORIGINAL);
    expect(addToConfigList(p, "approvals.allow", "sql_drop")).toEqual({ ok: true, changed: true });
    expect(addToConfigList(p, "approvals.allow", "sql_drop")).toEqual({ ok: true, changed: false });
    const text = readFileSync(p, "utf8");
    expect(text).toContain("# things I trust");
    const r = loadConfig(p);
    expect(r.ok && r.config.approvals.allow).toEqual(["recursive_delete", "sql_drop"]);
  });

  it("creates the list when the key is absent", () => {
    const p = join(dir(), "config.yaml");
    writeFileSync(p, "# only a comment\nmodel:\n  name: x\n");
    expect(addToConfigList(p, "approvals.allow", "fork_bomb").ok).toBe(true);
    const r = loadConfig(p);
    expect(r.ok && r.config.approvals.allow).toEqual(["fork_bomb"]);
    expect(readFileSync(p, "utf8")).toContain("# only a comment");
  });
});

describe("edits keep the user's layout", () => {
  const edited = (before: string, run: (p: string) => unknown) => {
    const p = join(dir(), "config.yaml");
    writeFileSync(p, before);
    run(p);
    return readFileSync(p, "utf8");
  };

  it("changes only the value's characters, adds a line for a new key and removes a key's lines", () => {
    const before = "# mine\nmodel:\n  name: gpt-4o    # pinned\n\napprovals:\n  allow: [a, b]\n";
    expect(edited(before, (p) => setConfigValue(p, "model.name", "gpt-5"))).toBe(
      before.replace("gpt-4o", "gpt-5"),
    );
    expect(edited(before, (p) => setConfigValue(p, "compression.threshold", 0.6))).toBe(
      `${before}compression:\n  threshold: 0.6\n`,
    );
    expect(edited(before, (p) => setConfigValue(p, "model.provider", "openai"))).toBe(
      before.replace("# pinned\n", "# pinned\n  provider: openai\n"),
    );
    expect(edited(before, (p) => unsetConfigValue(p, "approvals.allow"))).toBe(
      "# mine\nmodel:\n  name: gpt-4o    # pinned\n\n",
    );
  });

  it("keeps a one-line JSON file on one line", () => {
    const before = '{"model": {"name": "x"}, "approvals": {"mode": "manual"}}\n';
    expect(edited(before, (p) => setConfigValue(p, "compression.threshold", 0.6))).toBe(
      '{"model": {"name": "x"}, "approvals": {"mode": "manual"}, "compression": {"threshold": 0.6}}\n',
    );
    expect(edited(before, (p) => setConfigValue(p, "approvals.mode", "off"))).toBe(
      before.replace('"manual"', '"off"'),
    );
    expect(edited(before, (p) => unsetConfigValue(p, "approvals.mode"))).toBe(
      '{"model": {"name": "x"}, "approvals": {}}\n',
    );
  });
});

describe("a file with a problem", () => {
  const BROKEN = "model:\n  name: gpt-5\n  nmae: typo\n";
  it("can still be edited; the edit that fixes it clears it, one that adds a problem is refused", () => {
    const p = join(dir(), "config.yaml");
    writeFileSync(p, BROKEN);
    const other = setConfigValue(p, "approvals.mode", "off");
    expect(other.ok).toBe(true);
    if (other.ok) expect(other.remaining?.map((e) => e.key)).toEqual(["model.nmae"]);
    expect(setConfigValue(p, "approvals.mode", "sometimes").ok).toBe(false);
    expect(unsetConfigValue(p, "model.nmae")).toEqual({ ok: true, changed: true });
    expect(readFileSync(p, "utf8")).toBe("model:\n  name: gpt-5\napprovals:\n  mode: off\n");
    expect(loadConfig(p).ok).toBe(true);
  });

  it("is not rewritten when it is not YAML", () => {
    const p = join(dir(), "config.yaml");
    writeFileSync(p, "model: [unclosed\n");
    expect(setConfigValue(p, "approvals.mode", "off").ok).toBe(false);
    expect(readFileSync(p, "utf8")).toBe("model: [unclosed\n");
  });
});
