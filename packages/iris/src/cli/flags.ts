// The options every `iris` command accepts, in their own file so that commands can name the type
// without importing the program that parses them (no type-level cycle).
import type { ApiMode } from "@iris/llm";

export interface GlobalFlags {
  print?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiMode?: ApiMode;
  profile?: string;
  yolo?: boolean;
  maxRounds?: number;
  resume?: string;
  continue?: boolean;
}
