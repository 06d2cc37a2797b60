// What each route is asked about reasoning (SPEC P4, H4): per attempt, so a fallback to another
// api mode or model gets its own. The catalogue's reasoning flag says which models take the
// parameters; config.yaml `model.reasoning` adds effort or an Anthropic thinking budget.
//   responses: a reasoning model always gets encrypted reasoning back (store:false + include),
//     or its chain of thought is lost between rounds.
//   anthropic_messages: extended thinking only with `budget_tokens` (or an effort, mapped).
//   chat_completions: what is configured, in the route's own fields (`reasoning_effort`,
//     OpenRouter's `reasoning`, DeepSeek's and GLM's `thinking`, Qwen's `enable_thinking`).
import type { LlmRequest } from "@iris/llm";
import type { IrisConfig } from "../config/index.js";
import { modelInfoFor } from "./route.js";

type Reasoning = NonNullable<LlmRequest["reasoning"]>;
type Effort = NonNullable<Reasoning["effort"]>;

/** Thinking budgets for an effort given without budget_tokens. */
export const THINKING_BUDGET: Readonly<Record<Effort, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

export function reasoningFor(
  config: IrisConfig,
  route: { provider: string; model: string; apiMode: string },
): LlmRequest["reasoning"] {
  const found = modelInfoFor(route.provider, route.model, config);
  const asked = config.model.reasoning;
  // An unknown model takes what the user configured; a known one follows the catalogue.
  const reasons = found.known ? found.info.reasoning : asked !== undefined;
  if (!reasons) return undefined;
  const effort = asked?.effort;
  if (route.apiMode === "responses") return effort ? { effort } : {};
  if (route.apiMode === "anthropic_messages") {
    const budget = asked?.budget_tokens ?? (effort ? THINKING_BUDGET[effort] : undefined);
    return budget !== undefined ? { budgetTokens: budget } : undefined;
  }
  // Chat Completions: each provider family has its own fields (llm reasoning-params.ts); a
  // budget is used where the route takes one (OpenRouter, Qwen).
  if (asked === undefined) return undefined;
  const budgetTokens = asked.budget_tokens;
  return { ...(effort ? { effort } : {}), ...(budgetTokens !== undefined ? { budgetTokens } : {}) };
}
