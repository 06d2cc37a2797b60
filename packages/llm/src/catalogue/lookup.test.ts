import { describe, expect, it } from "vitest";
import "../providers/builtin/index.js";
import { listProviders } from "../providers/define.js";
import { DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_OUTPUT, lookupModel } from "./lookup.js";
import { BUNDLED_MODELS } from "./models.generated.js";

describe("lookupModel", () => {
  it("finds bundled facts and says so", () => {
    const r = lookupModel("anthropic", "claude-sonnet-4-6");
    expect(r).toMatchObject({ source: "bundled", known: true });
    expect(r.info).toMatchObject({
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      reasoning: true,
      vision: true,
    });
    const row = BUNDLED_MODELS.anthropic?.["claude-sonnet-4-6"];
    expect(row).toBeDefined();
    expect(r.info.contextWindow).toBe(row![0]);
    expect(r.info.maxOutput).toBe(row![1]);
    expect(r.info.price.input).toBe(row![2]);
  });

  it("one slug, three routes, three windows (SPEC M1)", () => {
    const codex = lookupModel("openai-codex", "gpt-5.5");
    const direct = lookupModel("openai", "gpt-5.5");
    const viaRouter = lookupModel("openrouter", "openai/gpt-5.5");
    expect(codex).toMatchObject({ source: "correction", known: true });
    expect(codex.info.contextWindow).toBe(272_000);
    expect(codex.note).toMatch(/272K/);
    expect(direct.info.contextWindow).toBe(1_050_000);
    expect(direct.source).toBe("correction");
    expect(viaRouter.info.contextWindow).toBe(1_050_000);
    expect(lookupModel("openai-codex", "gpt-5.3-codex-spark").info.contextWindow).toBe(128_000);
    expect(lookupModel("openai", "gpt-5.2").info.contextWindow).toBe(400_000);
  });

  it("a correction can add a route the snapshot lacks", () => {
    const r = lookupModel("openai-codex", "gpt-5");
    expect(r).toMatchObject({ source: "correction", known: true });
    expect(r.info.contextWindow).toBe(272_000);
    expect(r.info.price.input).toBe(lookupModel("openai", "gpt-5").info.price.input);
  });

  it("an explicit config window wins and the note keeps the catalogue's belief", () => {
    const r = lookupModel("openai-codex", "gpt-5.5", { contextWindowOverride: 200_000 });
    expect(r).toMatchObject({ source: "config", known: true });
    expect(r.info.contextWindow).toBe(200_000);
    expect(r.info.maxOutput).toBe(128_000);
    expect(r.note).toContain("272000");
  });

  it("an invalid config window is ignored, loudly", () => {
    const r = lookupModel("anthropic", "claude-sonnet-4-6", { contextWindowOverride: -5 });
    expect(r.source).toBe("bundled");
    expect(r.note).toContain("ignored model.context_window -5");
  });

  it("unknown routes are loud and use the stated default", () => {
    const r = lookupModel("ollama", "my-finetune:7b");
    expect(r).toMatchObject({ source: "default", known: false });
    expect(r.info.contextWindow).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(r.info.maxOutput).toBe(DEFAULT_MAX_OUTPUT);
    expect(r.note).toContain("UNKNOWN MODEL: (ollama, my-finetune:7b)");
    expect(r.note).toContain("128,000");
    // Same model on another route is not borrowed (SPEC P7).
    expect(lookupModel("vllm", "claude-sonnet-4-6").known).toBe(false);
  });

  it("knows every bundled provider's default model", () => {
    for (const def of listProviders()) {
      if (!def.defaultModel) continue;
      expect(lookupModel(def.id, def.defaultModel).known, `(${def.id}, ${def.defaultModel})`).toBe(true);
    }
  });

  it("accepts provider aliases and model ids in any case", () => {
    const r = lookupModel("Kimi", "KIMI-K2.6");
    expect(r).toMatchObject({ source: "bundled", known: true });
    expect(r.info.provider).toBe("moonshot");
  });
});
