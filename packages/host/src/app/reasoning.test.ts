import { describe, expect, it } from "vitest";
import { parseConfigText } from "../config/load.js";
import { reasoningFor } from "./reasoning.js";

function config(yaml: string) {
  const parsed = parseConfigText(yaml, "config.yaml");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.config;
}

describe("reasoningFor", () => {
  it("asks a reasoning model on Responses for encrypted reasoning, with the configured effort", () => {
    expect(reasoningFor(config(""), { provider: "openai", model: "gpt-5", apiMode: "responses" })).toEqual(
      {},
    );
    const withEffort = config("model:\n  reasoning:\n    effort: high\n");
    expect(reasoningFor(withEffort, { provider: "openai", model: "gpt-5", apiMode: "responses" })).toEqual({
      effort: "high",
    });
  });

  it("never sends reasoning parameters to a model the catalogue knows as a non-reasoning one", () => {
    const c = config("model:\n  reasoning:\n    effort: high\n    budget_tokens: 4096\n");
    expect(reasoningFor(c, { provider: "openai", model: "gpt-4.1", apiMode: "responses" })).toBeUndefined();
    expect(
      reasoningFor(c, { provider: "openai", model: "gpt-4.1", apiMode: "chat_completions" }),
    ).toBeUndefined();
  });

  it("enables Anthropic extended thinking only with a budget (or an effort mapped to one)", () => {
    const route = { provider: "anthropic", model: "claude-sonnet-4-5", apiMode: "anthropic_messages" };
    expect(reasoningFor(config(""), route)).toBeUndefined();
    expect(reasoningFor(config("model:\n  reasoning:\n    budget_tokens: 4096\n"), route)).toEqual({
      budgetTokens: 4096,
    });
    expect(reasoningFor(config("model:\n  reasoning:\n    effort: low\n"), route)).toEqual({
      budgetTokens: 2048,
    });
  });

  it("hands Chat Completions routes the effort and the budget, for the route's own fields", () => {
    const route = { provider: "custom", model: "my-local-model", apiMode: "chat_completions" };
    expect(reasoningFor(config(""), route)).toBeUndefined();
    expect(reasoningFor(config("model:\n  reasoning:\n    budget_tokens: 4096\n"), route)).toEqual({
      budgetTokens: 4096,
    });
    expect(reasoningFor(config("model:\n  reasoning:\n    effort: high\n"), route)).toEqual({
      effort: "high",
    });
  });

  it("takes the configured reasoning for a model no catalogue knows", () => {
    const route = { provider: "custom", model: "my-local-model", apiMode: "responses" };
    expect(reasoningFor(config(""), route)).toBeUndefined();
    expect(reasoningFor(config("model:\n  reasoning:\n    effort: low\n"), route)).toEqual({ effort: "low" });
  });
});
