// A Summarizer backed by a real model call through @iris/llm.
import { assistantText, completeLlm, type Runtime } from "@iris/llm";
import type { Summarizer } from "./summarise.js";

/** `contextWindow` is the summary model's believed window (checked before every call). */
export function llmSummarizer(runtime: Runtime, contextWindow: number): Summarizer {
  return {
    contextWindow,
    async summarize({ system, messages, maxOutputTokens, signal }) {
      const result = await completeLlm(
        runtime,
        { model: runtime.model, system, messages, maxOutputTokens },
        { signal },
      );
      if (!result.ok) {
        const status = result.error.status === undefined ? "" : ` ${result.error.status}`;
        return { ok: false, error: `${result.error.kind}${status}: ${result.error.message}` };
      }
      return { ok: true, text: assistantText(result.message) };
    },
  };
}
