// GET /v1/models and model ids → routes (SPEC E3): the profile's agent is one model id (default
// `iris`); `iris/chat` is the same model without tools (a chat UI's title and tag prompts must not
// run the agent); with `serve.models_per_route`, each configured route is one more,
// `iris/<provider>/<model>`.
import type { IrisConfig, RouteFlags } from "@iris/host";
import type { Runtime } from "@iris/llm";
import { ApiError } from "./errors.js";

export const AGENT_MODEL_ID = "iris";
/** The profile's route with no tools offered: it can only answer. */
export const CHAT_MODEL_ID = "iris/chat";

export class ModelIds {
  private readonly routes = new Map<string, RouteFlags | undefined>();
  private readonly created = Math.floor(Date.now() / 1000);

  constructor(main: Runtime, config: IrisConfig) {
    this.routes.set(AGENT_MODEL_ID, undefined);
    this.routes.set(CHAT_MODEL_ID, undefined);
    if (!config.serve.models_per_route) return;
    this.routes.set(`${AGENT_MODEL_ID}/${main.provider}/${main.model}`, undefined);
    for (const f of config.fallback_providers)
      this.routes.set(`${AGENT_MODEL_ID}/${f.provider}/${f.model}`, {
        provider: f.provider,
        model: f.model,
        ...(f.base_url ? { baseUrl: f.base_url } : {}),
      });
  }

  /** Whether `id` is offered no tools. */
  toolless(id: string): boolean {
    return id === CHAT_MODEL_ID;
  }

  get ids(): string[] {
    return [...this.routes.keys()];
  }

  /** The route flags of a model id (undefined: the profile's own route); 404 naming the ids. */
  resolve(id: string): RouteFlags | undefined {
    if (!this.routes.has(id))
      throw new ApiError(
        404,
        `The model ${JSON.stringify(id)} does not exist; available: ${this.ids.join(", ")}`,
        "invalid_request_error",
        "model_not_found",
        "model",
      );
    return this.routes.get(id);
  }

  list() {
    return {
      object: "list",
      data: this.ids.map((id) => ({ id, object: "model", created: this.created, owned_by: "iris" })),
    };
  }
}
