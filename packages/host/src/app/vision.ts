// Whether a route's model reads images (SPEC H4): `model.vision` in config.yaml for the configured
// model, else the catalogue's word for a model it knows; an unknown model is sent images (a
// wrong guess is a readable 400, a silent drop is not).
import type { ModelLookup } from "@iris/llm";
import type { IrisConfig } from "../config/index.js";
import { modelInfoFor } from "./route.js";

export function visionOf(found: ModelLookup, model: string, config: IrisConfig): boolean | undefined {
  const sameModel = !config.model.name || config.model.name === model;
  if (sameModel && config.model.vision !== undefined) return config.model.vision;
  return found.known ? found.info.vision : undefined;
}

/** The shaper's view of a route: its context window and whether it reads images. */
export function routeTraitsOf(config: IrisConfig) {
  return (provider: string, model: string) => {
    const found = modelInfoFor(provider, model, config);
    return { contextWindow: found.info.contextWindow, vision: visionOf(found, model, config) };
  };
}

/**
 * Whether a front end should accept images for this route (ACP's image capability): the model
 * reads them or may (unknown), or a vision model describes them for it.
 */
export function takesImages(provider: string, model: string, config: IrisConfig): boolean {
  return (
    visionOf(modelInfoFor(provider, model, config), model, config) !== false ||
    config.vision.model !== undefined
  );
}
