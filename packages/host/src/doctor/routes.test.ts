import { accessSync, chmodSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadProfile, type Profile } from "../config/index.js";
import { checkRoutes } from "./routes.js";
import { checkSummaryWindow } from "./summary.js";
import { type Finding, type Probe, systemProbe } from "./types.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "iris-doctor-routes-"));
  chmodSync(root, 0o700);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function profileWith(config: string, dotenv?: string, env: Record<string, string> = {}): Profile {
  writeFileSync(join(root, "config.yaml"), config, { mode: 0o600 });
  if (dotenv !== undefined) writeFileSync(join(root, ".env"), dotenv, { mode: 0o600 });
  const p = loadProfile({ env: { IRIS_HOME: root, ...env }, create: false, registerSecret: () => {} });
  if (!p.ok) throw new Error(`test config rejected: ${JSON.stringify(p.errors)}`);
  return p;
}

const bySubject = (fs: Finding[], subject: string) => fs.find((f) => f.subject === subject);

describe("routes", () => {
  it("a known main model with its key in a readable, writable .env passes", () => {
    const p = profileWith(
      "model: {provider: openai, name: gpt-4o-mini}\n",
      "OPENAI_API_KEY=sk-test-abcdefghijkl\n",
    );
    const r = checkRoutes(p, {}, systemProbe());
    expect(r.findings.filter((f) => f.status !== "ok")).toEqual([]);
    expect(bySubject(r.findings, "main route key")?.message).toContain("OPENAI_API_KEY from");
    expect(bySubject(r.findings, "main route model")?.message).toContain("known to the catalogue");
  });

  it("an unknown model of a custom endpoint warns and names model.context_window; an explicit window says where it came from", () => {
    const cfg =
      "model: {provider: custom, name: my-local-model}\nproviders: {custom: {base_url: 'http://127.0.0.1:9/v1'}}\n";
    const f = bySubject(checkRoutes(profileWith(cfg), {}, systemProbe()).findings, "main route model");
    // Its models are whatever its server offers: not a problem that fails doctor.
    expect(f?.status).toBe("warn");
    expect(f?.message).toMatch(/in no catalogue: the default window of 128,000 tokens/);
    expect(f?.fix).toContain("model.context_window");
    const withWindow = profileWith(
      cfg.replace("name: my-local-model", "name: my-local-model, context_window: 32000"),
    );
    expect(bySubject(checkRoutes(withWindow, {}, systemProbe()).findings, "main route model")?.status).toBe(
      "warn",
    );
  });

  it("a fallback whose key is missing fails with the variable to add, and the chain is walked to the end", () => {
    const p = profileWith(
      [
        "model: {provider: openai, name: gpt-4o-mini}",
        "fallback_providers:",
        "  - {provider: anthropic, model: claude-sonnet-4-5}",
        "  - {provider: openai, model: gpt-4o}",
      ].join("\n"),
      "OPENAI_API_KEY=sk-test-abcdefghijkl\n",
    );
    const r = checkRoutes(p, {}, systemProbe());
    const first = bySubject(r.findings, "fallback 1 (anthropic/claude-sonnet-4-5)");
    expect(first?.status).toBe("fail");
    expect(first?.fix).toBe(
      `add ANTHROPIC_API_KEY=<your key> to ${join(root, ".env")} (then chmod 600 ${join(root, ".env")})`,
    );
    expect(bySubject(r.findings, "fallback 2 (openai/gpt-4o)")?.status).toBe("ok");
    expect(r.resolved.map((x) => x.label)).toEqual(["main route", "fallback 2"]);
  });

  it("a key in a .env the user cannot write fails: the refresh after a 401 could not store it", () => {
    const p = profileWith(
      "model: {provider: openai, name: gpt-4o-mini}\nfallback_providers: [{provider: openai, model: gpt-4o}]\n",
      "OPENAI_API_KEY=sk-test-abcdefghijkl\n",
    );
    const env = join(root, ".env");
    const probe: Probe = {
      ...systemProbe(),
      access: (path, mode) => {
        if (path === env && mode & constants.W_OK)
          throw Object.assign(new Error("EACCES"), { code: "EACCES" });
        accessSync(path, mode);
      },
    };
    const r = checkRoutes(p, {}, probe);
    for (const subject of ["main route key", "fallback 1 (openai/gpt-4o) key"]) {
      const f = bySubject(r.findings, subject);
      expect(f?.status).toBe("fail");
      expect(f?.message).toMatch(/cannot write/);
      expect(f?.fix).toContain(`chmod 600 ${env}`);
    }
  });

  it("a key from the process environment is fine but said to be unrefreshable", () => {
    const p = profileWith("model: {provider: openai, name: gpt-4o-mini}\n", undefined, {
      OPENAI_API_KEY: "sk-test-abcdefghijkl",
    });
    const f = bySubject(checkRoutes(p, {}, systemProbe()).findings, "main route key");
    expect(f).toMatchObject({ status: "ok" });
    expect(f?.message).toContain("process environment");
  });

  it("no provider at all fails with the keys to set", () => {
    const f = bySubject(checkRoutes(profileWith(""), {}, systemProbe()).findings, "main route");
    expect(f?.status).toBe("fail");
    expect(f?.fix).toContain("model.provider");
  });
});

describe("the summary model's window", () => {
  const key = "OPENAI_API_KEY=sk-test-abcdefghijkl\n";

  it("passes with the main model and fails with a smaller one, naming the size needed", () => {
    const main = "model: {provider: openai, name: gpt-4.1}\n";
    const ok = profileWith(main, key);
    expect(checkSummaryWindow(ok, checkRoutes(ok, {}, systemProbe()).main).status).toBe("ok");

    // gpt-4.1: ~1.05M window, threshold 0.5 (no floor above 512K) → trigger ~523K; gpt-4o-mini has 128K.
    const small = profileWith(`${main}compression: {summary_model: openai/gpt-4o-mini}\n`, key);
    const f = checkSummaryWindow(small, checkRoutes(small, {}, systemProbe()).main);
    expect(f.status).toBe("fail");
    expect(f.message).toContain("openai/gpt-4o-mini has a 128,000-token window");
    expect(f.fix).toMatch(
      /set compression\.summary_model to a model with a window of at least 523,788 tokens/,
    );
  });

  it("is skipped when compression is off", () => {
    const p = profileWith(
      "model: {provider: openai, name: gpt-4.1}\ncompression: {enabled: false, summary_model: gpt-4o-mini}\n",
      key,
    );
    expect(checkSummaryWindow(p, checkRoutes(p, {}, systemProbe()).main).status).toBe("ok");
  });
});
