// The vision model behind vision_analyze and behind images sent to a text-only model (SPEC H4):
// `vision.model` resolved like any route (its key from the profile), one call per image.
import { assistantText, completeLlm, estimateCost, type ImagePart, type UserMessage } from "@iris/llm";
import type { DescribeImage, ModelCallSink, ToolEnvironment } from "@iris/tools";
import type { IrisConfig } from "../config/index.js";
import { splitModelSpec } from "./context-report.js";
import { modelInfoFor, resolveMainRoute } from "./route.js";
import { visionOf } from "./vision.js";

export function imageDescriber(config: IrisConfig, env: Record<string, string>): DescribeImage | undefined {
  const spec = config.vision.model;
  if (!spec) return undefined;
  return async (image, question, signal, onCall) => {
    const { provider, model } = splitModelSpec(spec, config, config.model.provider ?? "");
    const resolved = resolveMainRoute({ provider, model }, config, env);
    if (!resolved.ok) throw new Error(`vision.model ${spec} cannot be used: ${resolved.error}`);
    const started = Date.now();
    const r = await completeLlm(
      resolved.runtime,
      {
        model: resolved.runtime.model,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: question },
              { type: "image", ...image },
            ],
          },
        ],
        maxOutputTokens: 1024,
      },
      { signal },
    );
    if (!r.ok) throw new Error(`vision.model ${spec}: ${r.error.message}`);
    // Billed like any other call (F3), at the vision model's own price.
    const info = modelInfoFor(resolved.runtime.provider, resolved.runtime.model, config).info;
    await onCall?.(r.message, estimateCost(r.message.usage, info), Date.now() - started);
    return assistantText(r.message);
  };
}

/**
 * A user message's images, for a model that cannot read them, become the vision model's
 * descriptions (never a silent drop); without a vision model they stay, and shaping leaves a note.
 */
export async function describeForTextOnly(
  input: UserMessage,
  describe: DescribeImage,
  signal: AbortSignal,
  onCall?: ModelCallSink,
): Promise<UserMessage> {
  if (typeof input.content === "string" || !input.content.some((p) => p.type === "image")) return input;
  let n = 0;
  const content = await Promise.all(
    input.content.map(async (p) => {
      if (p.type !== "image") return p;
      n++;
      const image = p as ImagePart;
      if (!image.data) return { type: "text" as const, text: `[image ${n}: ${image.url ?? "no data"}]` };
      try {
        const text = await describe(
          { mediaType: image.mediaType, data: image.data },
          "Describe this image in detail: its text, layout, and anything notable.",
          signal,
          onCall,
        );
        return { type: "text" as const, text: `[image ${n}, described by the vision model: ${text}]` };
      } catch (err) {
        return {
          type: "text" as const,
          text: `[image ${n}: the vision model could not describe it (${err instanceof Error ? err.message : String(err)})]`,
        };
      }
    }),
  );
  return { ...input, content };
}

/** What a turn's input becomes on `route`: described images when the model is text-only. */
export async function imagesForRoute(
  input: string | UserMessage | null,
  route: { provider: string; model: string },
  session: { profile: { config: IrisConfig }; tools: { registry: { environment: ToolEnvironment } } },
  signal: AbortSignal,
  onCall?: ModelCallSink,
): Promise<string | UserMessage | null> {
  const env = session.tools.registry.environment;
  const { config } = session.profile;
  if (!env.describeImage || input === null || typeof input === "string") return input;
  if (visionOf(modelInfoFor(route.provider, route.model, config), route.model, config) !== false)
    return input;
  return describeForTextOnly(input, env.describeImage, signal, onCall);
}
