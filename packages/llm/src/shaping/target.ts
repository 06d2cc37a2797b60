// What send-time shaping shapes for (SPEC H4): the route the next request goes to.
import type { ApiMode, Origin } from "../types.js";

export interface ShapeTarget {
  provider: string;
  apiMode: ApiMode;
  /** Never influences shaping: same-provider model switches must send byte-identical requests. */
  model: string;
  /** The target's input limit in tokens; when given, oldest turns are dropped to fit (H5). */
  contextWindow?: number;
  /** false for text-only models: images become a text note. Unknown (undefined) keeps them. */
  vision?: boolean;
  /** The endpoint the request goes to (wire/issuer.ts): signed reasoning from another is dropped. */
  issuer?: string;
}

/** Same provider and same wire format: the target can read this origin's own items back. */
export function sameRoute(origin: Origin, target: ShapeTarget): boolean {
  return origin.provider === target.provider && origin.apiMode === target.apiMode;
}
