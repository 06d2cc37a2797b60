import { describe, expect, it } from "vitest";
import "./builtin/index.js";
import { type RoutingConfig, resolveRuntime } from "./resolve.js";

const OPENAI_KEY = "sk-commercial-openai-0123456789";
const env = { OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: "sk-ant-commercial-0123456789" };

function resolved(...args: Parameters<typeof resolveRuntime>) {
  const r = resolveRuntime(...args);
  if (!r.ok) throw new Error(r.error);
  return r;
}

describe("key scoping (SPEC P3)", () => {
  it("a custom --base-url for a commercial provider gets no env key, and the notes say why", () => {
    const { runtime, notes } = resolved({ provider: "openai", baseUrl: "http://127.0.0.1:9999/v1" }, {}, env);
    expect(runtime.apiKey).toBeUndefined();
    expect(runtime.source.apiKey).toBe("none");
    const text = notes.join("\n");
    expect(text).toContain("OPENAI_API_KEY is set but NOT sent");
    expect(text).toContain("http://127.0.0.1:9999/v1");
    expect(text).toContain("(openai, ");
    expect(text).not.toContain(OPENAI_KEY);
  });

  it("a stale OPENAI_BASE_URL export does not carry OPENAI_API_KEY to it", () => {
    const { runtime } = resolved(
      { provider: "openai" },
      {},
      { ...env, OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    );
    expect(runtime.baseUrl).toBe("http://127.0.0.1:9/v1");
    expect(runtime.apiKey).toBeUndefined();
  });

  it("a look-alike host is not the provider's origin", () => {
    for (const baseUrl of [
      "https://api.openai.com.evil.test/v1",
      "http://api.openai.com/v1",
      "https://api.openai.com:8443/v1",
    ]) {
      expect(resolved({ provider: "openai", baseUrl }, {}, env).runtime.apiKey).toBeUndefined();
    }
  });

  it("the provider's own origin (any path) gets its key", () => {
    const { runtime } = resolved({ provider: "openai", baseUrl: "https://api.openai.com/v2" }, {}, env);
    expect(runtime.apiKey).toBe(OPENAI_KEY);
  });

  it("a config base_url with api_key_env pairs that key with that endpoint", () => {
    const config: RoutingConfig = {
      providers: { openai: { base_url: "https://gateway.corp.test/v1", api_key_env: "CORP_KEY" } },
    };
    const { runtime } = resolved({ provider: "openai" }, config, { ...env, CORP_KEY: "corp-secret-000000" });
    expect(runtime.apiKey).toBe("corp-secret-000000");
    expect(runtime.apiKeyEnv).toBe("CORP_KEY");
    expect(runtime.source.apiKey).toBe("config");
    // …and an explicit --base-url elsewhere gets neither that key nor the env one.
    const moved = resolved({ provider: "openai", baseUrl: "http://127.0.0.1:9999/v1" }, config, {
      ...env,
      CORP_KEY: "corp-secret-000000",
    });
    expect(moved.runtime.apiKey).toBeUndefined();
  });

  it("a config base_url without a configured key does not receive the provider's env key", () => {
    const config: RoutingConfig = { providers: { openai: { base_url: "https://gateway.corp.test/v1" } } };
    const { runtime, notes } = resolved({ provider: "openai" }, config, env);
    expect(runtime.apiKey).toBeUndefined();
    expect(notes.join("\n")).toContain("providers.openai.api_key_env");
  });

  it("providers with no default endpoint own the one configured for them", () => {
    const config: RoutingConfig = {
      providers: { "azure-foundry": { base_url: "https://res.openai.azure.com/openai/v1" } },
    };
    const e = { AZURE_FOUNDRY_API_KEY: "azure-key-0123456789" };
    expect(resolved({ provider: "azure", model: "gpt-5" }, config, e).runtime.apiKey).toBe(
      "azure-key-0123456789",
    );
    const elsewhere = resolved(
      { provider: "azure", model: "gpt-5", baseUrl: "http://127.0.0.1:1/v1" },
      config,
      e,
    );
    expect(elsewhere.runtime.apiKey).toBeUndefined();
  });

  it("provider custom never takes a commercial key from env", () => {
    const { runtime } = resolved(
      { provider: "custom", model: "m", baseUrl: "http://127.0.0.1:9999/v1" },
      {},
      env,
    );
    expect(runtime.apiKey).toBeUndefined();
  });

  it("an explicit key goes where it is explicitly sent", () => {
    const { runtime } = resolved(
      { provider: "custom", model: "m", baseUrl: "http://127.0.0.1:9999/v1", apiKey: "explicit-key-000000" },
      {},
      env,
    );
    expect(runtime.apiKey).toBe("explicit-key-000000");
    expect(runtime.source.apiKey).toBe("explicit");
  });

  it("a named api_key_env that is unset is reported", () => {
    const config: RoutingConfig = { providers: { ollama: { api_key_env: "NOT_THERE" } } };
    const { notes } = resolved({ provider: "ollama", model: "llama3" }, config, {});
    expect(notes.join("\n")).toContain("providers.ollama.api_key_env names NOT_THERE, which is not set");
  });
});
