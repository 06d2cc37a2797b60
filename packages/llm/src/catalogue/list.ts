// Every model the bundled catalogue knows, for listings (`iris models`, the `/model` picker).
import { BUNDLED_MODELS } from "./models.generated.js";
import { infoFromRow, type ModelInfo } from "./types.js";

export function listCatalogue(provider?: string): ModelInfo[] {
  const ids = provider ? [provider] : Object.keys(BUNDLED_MODELS).sort();
  return ids.flatMap((id) =>
    Object.entries(BUNDLED_MODELS[id] ?? {})
      .map(([model, row]) => infoFromRow(id, model, row))
      .sort((a, b) => a.model.localeCompare(b.model)),
  );
}
