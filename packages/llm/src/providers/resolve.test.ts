import { describe, expect, it } from "vitest";
import { getProvider, registerProvider } from "./define.js";
import "./builtin/index.js";
import { type RoutingConfig, resolveRuntime } from "./resolve.js";

function ok(result: ReturnType<typeof resolveRuntime>) {
  if (!result.ok) throw new Error(`expected ok, got: ${result.error}`);
  return result;
}
function err(result: ReturnType<typeof resolveRuntime>): string {
  if (result.ok) throw new Error(`expected an error, got runtime for ${result.runtime.provider}`);
  return result.error;
}

describe("resolveRuntime precedence (explicit > config > env > default)", () => {
  const env = {
    IRIS_PROVIDER: "deepseek",
    IRIS_MODEL: "deepseek-v4-pro",
    OPENAI_API_KEY: "sk-env-openai-0000000000",
    OPENAI_BASE_URL: "http://127.0.0.1:7777/v1",
    DEEPSEEK_API_KEY: "sk-env-deepseek-00000000",
  };
  const config: RoutingConfig = {
    model: { provider: "openai", name: "gpt-5.4" },
    providers: { openai: { base_url: "https://proxy.example.com/v1", api_mode: "chat_completions" } },
  };

  it("explicit values beat everything and are marked explicit", () => {
    const { runtime } = ok(
      resolveRuntime(
        {
          provider: "openai",
          model: "gpt-5.5",
          baseUrl: "https://api.openai.com/v1/",
          apiMode: "responses",
          apiKey: "sk-explicit-111111111111",
        },
        config,
        env,
      ),
    );
    expect(runtime).toMatchObject({
      provider: "openai",
      model: "gpt-5.5",
      baseUrl: "https://api.openai.com/v1",
      apiMode: "responses",
      apiKey: "sk-explicit-111111111111",
    });
    expect(runtime.source).toEqual({
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "explicit",
      apiKey: "explicit",
    });
  });

  it("config beats env: a stale OPENAI_BASE_URL / IRIS_PROVIDER never wins over config.yaml", () => {
    const { runtime } = ok(resolveRuntime({}, config, env));
    expect(runtime.provider).toBe("openai");
    expect(runtime.model).toBe("gpt-5.4");
    expect(runtime.baseUrl).toBe("https://proxy.example.com/v1");
    expect(runtime.apiMode).toBe("chat_completions");
    expect(runtime.source).toMatchObject({
      provider: "config",
      model: "config",
      baseUrl: "config",
      apiMode: "config",
    });
  });

  it("env beats the built-in default when config says nothing", () => {
    const { runtime } = ok(resolveRuntime({ provider: "openai" }, {}, env));
    expect(runtime.baseUrl).toBe("http://127.0.0.1:7777/v1");
    expect(runtime.source.baseUrl).toBe("env");
    const ds = ok(resolveRuntime({}, {}, env)).runtime;
    expect(ds).toMatchObject({ provider: "deepseek", model: "deepseek-v4-pro" });
    expect(ds.source).toMatchObject({ provider: "env", model: "env", apiKey: "env" });
  });

  it("falls back to the provider's defaults and says so", () => {
    const { runtime } = ok(resolveRuntime({ provider: "openai" }, {}, { OPENAI_API_KEY: "sk-abcdefghijkl" }));
    expect(runtime).toMatchObject({
      baseUrl: "https://api.openai.com/v1",
      apiMode: "responses",
      model: getProvider("openai")?.defaultModel,
      apiKey: "sk-abcdefghijkl",
      apiKeyEnv: "OPENAI_API_KEY",
    });
    expect(runtime.source).toEqual({
      provider: "explicit",
      model: "default",
      baseUrl: "default",
      apiMode: "default",
      apiKey: "env",
    });
  });

  it("a model configured for one provider is not applied to another", () => {
    const { runtime } = ok(
      resolveRuntime({ provider: "anthropic" }, config, { ANTHROPIC_API_KEY: "sk-ant-xxxxxxxxxxxx" }),
    );
    expect(runtime.model).toBe(getProvider("anthropic")?.defaultModel);
    expect(runtime.source.model).toBe("default");
  });

  it("aliases resolve to the provider id, case-insensitively", () => {
    const { runtime } = ok(
      resolveRuntime({ provider: "Kimi" }, {}, { MOONSHOT_API_KEY: "sk-moonshot-00000000" }),
    );
    expect(runtime.provider).toBe("moonshot");
    expect(runtime.baseUrl).toBe("https://api.moonshot.ai/v1");
  });

  it("config headers merge over the provider's own", () => {
    const { runtime } = ok(
      resolveRuntime(
        { provider: "openrouter" },
        { providers: { openrouter: { headers: { "X-Title": "Mine", "X-Extra": "1" } } } },
        { OPENROUTER_API_KEY: "sk-or-v1-0000000000" },
      ),
    );
    expect(runtime.headers).toEqual({ "X-Title": "Mine", "X-Extra": "1" });
  });
});

describe("resolveRuntime errors name exactly what to set", () => {
  it("a missing key names the variable and the config key", () => {
    expect(err(resolveRuntime({ provider: "anthropic" }, {}, {}))).toBe(
      "provider 'anthropic' needs ANTHROPIC_API_KEY (or providers.anthropic.api_key_env in config.yaml)",
    );
  });

  it("no provider anywhere", () => {
    expect(err(resolveRuntime({}, {}, {}))).toMatch(/--provider.*model\.provider.*IRIS_PROVIDER/);
  });

  it("an unknown provider lists how to add one", () => {
    const e = err(resolveRuntime({ provider: "nosuch" }, {}, {}));
    expect(e).toContain("unknown provider 'nosuch'");
    expect(e).toContain("providers.nosuch");
    expect(e).toContain("custom");
    expect(e).toContain("openrouter");
  });

  it("custom without a base URL", () => {
    expect(err(resolveRuntime({ provider: "custom", model: "m" }, {}, {}))).toContain(
      "provider 'custom' needs a base URL: pass --base-url URL or set providers.custom.base_url",
    );
  });

  it("a provider without a default model", () => {
    expect(err(resolveRuntime({ provider: "ollama" }, {}, {}))).toContain(
      "no model chosen for provider 'ollama'",
    );
  });

  it("a bad api mode and a bad URL", () => {
    const cfg: RoutingConfig = { providers: { openai: { api_mode: "chat" } } };
    expect(err(resolveRuntime({ provider: "openai" }, cfg, { OPENAI_API_KEY: "sk-aaaaaaaaaaaa" }))).toContain(
      "providers.openai.api_mode 'chat' must be one of chat_completions, responses, anthropic_messages",
    );
    expect(
      err(resolveRuntime({ provider: "ollama", model: "m", baseUrl: "localhost:11434" }, {}, {})),
    ).toContain("--base-url 'localhost:11434' is not an http(s) URL");
  });
});

describe("providers defined in config or registered later", () => {
  it("a providers: entry with a base_url is an OpenAI-compatible provider of its own", () => {
    const cfg: RoutingConfig = {
      model: { provider: "mybox", name: "qwen3" },
      providers: { mybox: { base_url: "http://10.0.0.5:8000/v1", api_key_env: "MYBOX_KEY" } },
    };
    const { runtime } = ok(resolveRuntime({}, cfg, { MYBOX_KEY: "box-secret-123456" }));
    expect(runtime).toMatchObject({
      provider: "mybox",
      model: "qwen3",
      apiMode: "chat_completions",
      baseUrl: "http://10.0.0.5:8000/v1",
      apiKey: "box-secret-123456",
      apiKeyEnv: "MYBOX_KEY",
    });
    expect(runtime.source.apiKey).toBe("config");
  });

  it("registerProvider adds a provider with no resolver change", () => {
    registerProvider({
      id: "acme-test",
      label: "Acme",
      apiMode: "chat_completions",
      baseUrl: "https://llm.acme.test/v1",
      keyEnv: ["ACME_API_KEY"],
      compat: { auth: "bearer" },
      defaultModel: "acme-1",
    });
    const { runtime } = ok(
      resolveRuntime({ provider: "acme-test" }, {}, { ACME_API_KEY: "acme-key-0000000" }),
    );
    expect(runtime).toMatchObject({
      baseUrl: "https://llm.acme.test/v1",
      model: "acme-1",
      apiKey: "acme-key-0000000",
    });
  });

  it("rejects a malformed definition", () => {
    expect(() =>
      registerProvider({
        id: "Bad Id",
        label: "x",
        apiMode: "chat_completions",
        baseUrl: "",
        keyEnv: [],
        compat: { auth: "none" },
      }),
    ).toThrow(/must match/);
  });
});
