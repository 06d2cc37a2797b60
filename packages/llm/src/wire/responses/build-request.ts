// LlmRequest → POST {baseUrl}/responses. Stateless (store:false): the whole history goes every time.
import type { Runtime } from "../../runtime.js";
import type { LlmRequest } from "../../types.js";
import type { BuiltRequest } from "../adapter.js";
import { historyLast } from "../body.js";
import { convertInput } from "./convert-input.js";
import { prepareTools } from "./prepare-tools.js";

export function buildResponsesRequest(runtime: Runtime, request: LlmRequest): BuiltRequest {
  const toolsAllowed = runtime.compat.tools !== false;
  const reasoning = request.reasoning;
  const body: Record<string, unknown> = {
    model: request.model,
    ...(request.system ? { instructions: request.system } : {}),
    input: convertInput(request.messages),
    ...(toolsAllowed ? prepareTools(request.tools, request.toolChoice) : {}),
    ...(request.maxOutputTokens !== undefined ? { max_output_tokens: request.maxOutputTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(reasoning
      ? {
          reasoning: { ...(reasoning.effort ? { effort: reasoning.effort } : {}), summary: "auto" },
          include: ["reasoning.encrypted_content"],
        }
      : {}),
    store: false,
    stream: request.stream !== false,
  };
  return { path: "/responses", body: historyLast(body, "input"), headers: {} };
}
