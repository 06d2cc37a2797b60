import { describe, expect, it } from "vitest";
import { listProviders } from "./define.js";
import "./builtin/index.js";
import { resolveRuntime } from "./resolve.js";

// SPEC P5: at least these are bundled.
const REQUIRED = [
  "openrouter",
  "anthropic",
  "openai",
  "openai-codex",
  "gemini",
  "deepseek",
  "dashscope",
  "moonshot",
  "zai",
  "minimax",
  "xai",
  "groq",
  "mistral",
  "bedrock",
  "azure-foundry",
  "nvidia",
  "ollama",
  "lmstudio",
  "vllm",
  "llamacpp",
  "custom",
];

describe("bundled providers", () => {
  it("include every provider SPEC P5 lists", () => {
    const ids = listProviders().map((p) => p.id);
    for (const id of REQUIRED) expect(ids).toContain(id);
  });

  for (const id of REQUIRED) {
    it(`${id} resolves to its own endpoint with its own key`, () => {
      const def = listProviders().find((p) => p.id === id)!;
      const env: Record<string, string> = {};
      def.keyEnv.forEach((name, i) => {
        env[name] = `key-for-${id}-${i}-0123456789`;
      });
      // Providers without a default endpoint get theirs from config, as users do.
      const config = def.baseUrl
        ? {}
        : { providers: { [id]: { base_url: "https://endpoint.example.test/v1" } } };
      const result = resolveRuntime({ provider: id, model: def.defaultModel ?? "some-model" }, config, env);
      if (!result.ok) throw new Error(result.error);
      const { runtime } = result;
      expect(runtime.provider).toBe(id);
      expect(runtime.apiMode).toBe(def.apiMode);
      expect(runtime.baseUrl).toBe(def.baseUrl || "https://endpoint.example.test/v1");
      expect(runtime.compat).toEqual(def.compat);
      if (def.keyEnv.length > 0) {
        expect(runtime.apiKey).toBe(`key-for-${id}-0-0123456789`);
        expect(runtime.apiKeyEnv).toBe(def.keyEnv[0]);
      } else {
        expect(runtime.apiKey).toBeUndefined();
      }
    });
  }

  it("hosted providers use https and name a key variable; local ones use loopback", () => {
    for (const def of listProviders()) {
      if (!REQUIRED.includes(def.id) || def.baseUrl === "") continue;
      const url = new URL(def.baseUrl);
      if (def.local) expect(url.hostname).toBe("127.0.0.1");
      else {
        expect(url.protocol).toBe("https:");
        expect(def.keyEnv.length).toBeGreaterThan(0);
      }
    }
  });
});
