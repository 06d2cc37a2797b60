// The model names the bundled catalogue knows for a provider (model pickers: ACP's model option).
import { BUNDLED_MODELS } from "./models.generated.js";

export function catalogueModelNames(provider: string): string[] {
  return Object.keys(BUNDLED_MODELS[provider] ?? {}).sort();
}
