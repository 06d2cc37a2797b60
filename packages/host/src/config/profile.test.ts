import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clearSecrets, redact } from "@iris/llm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatConfigErrors } from "./load.js";
import { loadProfile } from "./profile.js";

const temps: string[] = [];
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
  vi.restoreAllMocks();
});
function base(): string {
  const d = mkdtempSync(join(tmpdir(), "iris-prof-"));
  temps.push(d);
  return d;
}

describe("loadProfile", () => {
  it("keeps profiles apart: config and .env of one never reach another", () => {
    const home = base();
    const work = join(home, "profiles", "work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "config.yaml"), "model:\n  provider: anthropic\n  name: claude\n");
    writeFileSync(join(work, ".env"), "ANTHROPIC_API_KEY=work-key-123456\n", { mode: 0o600 });
    writeFileSync(join(home, "config.yaml"), "model:\n  provider: openai\n  name: gpt\n");

    const env = { IRIS_HOME: home, PATH: "/bin" };
    const w = loadProfile({ env, profile: "work", registerSecret: () => {} });
    const d = loadProfile({ env, registerSecret: () => {} });
    const fresh = loadProfile({ env, profile: "fresh", registerSecret: () => {} });
    if (!w.ok || !d.ok || !fresh.ok) throw new Error("expected three valid profiles");
    expect(w.config.model.provider).toBe("anthropic");
    expect(w.env["ANTHROPIC_API_KEY"]).toBe("work-key-123456");
    expect(d.config.model.provider).toBe("openai");
    expect(d.env["ANTHROPIC_API_KEY"]).toBeUndefined();
    expect(fresh.config.model).toEqual({});
    expect(fresh.home.root).toBe(join(home, "profiles", "fresh"));
    expect(w.home.paths.db).not.toBe(d.home.paths.db);
  });

  it("registers every .env value and config key as a secret and prints nothing", () => {
    const home = base();
    writeFileSync(join(home, ".env"), "A_KEY=dotenv-secret-1\nB_TOKEN=dotenv-secret-2\n");
    chmodSync(join(home, ".env"), 0o644);
    writeFileSync(
      join(home, "config.yaml"),
      "providers:\n  mine:\n    api_key: config-secret-3\n    headers: {X-Auth-Token: header-secret-4, HTTP-Referer: https://example.org}\n",
      { mode: 0o600 },
    );
    const out = vi.spyOn(process.stdout, "write");
    const err = vi.spyOn(process.stderr, "write");
    const secrets: string[] = [];
    const r = loadProfile({ env: { IRIS_HOME: home }, registerSecret: (v) => secrets.push(v) });
    expect(r.ok).toBe(true);
    expect(secrets.sort()).toEqual([
      "config-secret-3",
      "dotenv-secret-1",
      "dotenv-secret-2",
      "header-secret-4",
    ]);
    if (r.ok) expect(r.warnings.some((w) => w.includes("readable by other users"))).toBe(true);
    expect(out).not.toHaveBeenCalled();
    expect(err).not.toHaveBeenCalled();
  });

  it("returns config errors instead of throwing, and rejects a bad profile name", () => {
    const home = base();
    writeFileSync(join(home, "config.yaml"), "agent:\n  max_round: 5\n");
    const r = loadProfile({ env: { IRIS_HOME: home }, registerSecret: () => {} });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(formatConfigErrors(r.errors)).toMatch(/config\.yaml:2:3: agent\.max_round: unknown key/);
    const bad = loadProfile({ env: { IRIS_HOME: home }, profile: "../etc" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(formatConfigErrors(bad.errors)).toMatch(/^--profile: invalid profile name/);
  });
});

describe("loadProfile with the real logger", () => {
  it("registers .env values so log redaction hides them", () => {
    const home = base();
    writeFileSync(join(home, ".env"), "SOME_TOKEN=plain-looking-value-42\n", { mode: 0o600 });
    clearSecrets();
    const r = loadProfile({ env: { IRIS_HOME: home } });
    expect(r.ok).toBe(true);
    expect(redact("using plain-looking-value-42 now")).not.toContain("plain-looking-value-42");
    clearSecrets();
  });
});

describe("loadProfile when the home cannot be created", () => {
  it("returns an error naming the folder instead of throwing", () => {
    const blocker = join(base(), "file");
    writeFileSync(blocker, "");
    const r = loadProfile({ env: { IRIS_HOME: blocker }, profile: "x", registerSecret: () => {} });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(formatConfigErrors(r.errors)).toMatch(/profiles\/x: cannot create the profile folder \(E\w+\)/);
  });
});
