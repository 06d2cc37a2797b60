// The summary model must take what compression hands it (SPEC C3, K3): the part to summarise
// can be as large as the main model's compression trigger, so a summary model with a smaller
// window would fail exactly when it is needed.
import { computeContextBudget } from "@iris/agent";
import type { Runtime } from "@iris/llm";
import { modelInfoFor } from "../app/route.js";
import type { Profile } from "../config/index.js";
import { summarySpec } from "./routes.js";
import type { Finding } from "./types.js";

const n = (x: number) => x.toLocaleString("en-US");

export function checkSummaryWindow(profile: Profile, main: Runtime | undefined): Finding {
  const subject = "summary model window";
  const { compression } = profile.config;
  if (!compression.enabled) return { status: "ok", subject, message: "compression is off" };
  if (!main) return { status: "warn", subject, message: "not checked: the main route does not resolve" };
  const mainWindow = modelInfoFor(main.provider, main.model, profile.config).info.contextWindow;
  const budget = computeContextBudget({
    contextWindow: mainWindow,
    threshold: compression.threshold,
    tailRatio: compression.target_ratio,
    protectLastN: Math.max(1, compression.protect_last_n),
  });
  const spec = summarySpec(profile, main) ?? { provider: main.provider, model: main.model };
  const name = `${spec.provider}/${spec.model}`;
  const summary = modelInfoFor(spec.provider, spec.model, profile.config);
  const window = summary.info.contextWindow;
  const needs =
    `compression hands it up to ${n(budget.triggerTokens)} tokens ` +
    `(${Math.round(budget.thresholdUsed * 100)} % of the main model's ${n(mainWindow)}-token window)`;
  if (window < budget.triggerTokens)
    return {
      status: "fail",
      subject,
      message: `${name} has a ${n(window)}-token window, but ${needs}`,
      fix: `set compression.summary_model to a model with a window of at least ${n(budget.triggerTokens)} tokens, or remove it to use the main model`,
    };
  const source =
    summary.source === "config"
      ? "model.context_window"
      : summary.known
        ? summary.source
        : "the default: model unknown";
  return {
    status: "ok",
    subject,
    message: `${name}: ${n(window)} tokens (${source}); ${needs}`,
  };
}
