// A Summarizer backed by a real model call through @iris/llm.
import { type AssistantMessage, assistantText, completeLlm, type Runtime } from "@iris/llm";
import type { Summarizer } from "./summarise.js";

/**
 * `contextWindow` is the summary model's believed window (checked before every call). `onReply`
 * sees every answered call, so its usage is recorded like any other call's (SPEC F3).
 */
export function llmSummarizer(
  runtime: Runtime,
  contextWindow: number,
  onReply: (message: AssistantMessage, latencyMs: number) => Promise<void> | void = () => {},
): Summarizer {
  return {
    contextWindow,
    async summarize({ system, messages, maxOutputTokens, signal }) {
      const started = performance.now();
      const result = await completeLlm(
        runtime,
        { model: runtime.model, system, messages, maxOutputTokens },
        { signal },
      );
      if (!result.ok) {
        const status = result.error.status === undefined ? "" : ` ${result.error.status}`;
        return { ok: false, error: `${result.error.kind}${status}: ${result.error.message}` };
      }
      await onReply(result.message, performance.now() - started);
      return { ok: true, text: assistantText(result.message) };
    },
  };
}
