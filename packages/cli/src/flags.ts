// The options every `iris` command accepts, in their own file so that commands can name the type
// without importing the program that parses them (no type-level cycle).
import type { ApiMode } from "@iris/llm";
import type { OutputFormat } from "./output-format.js";

export interface GlobalFlags {
  /** The `-p` value; true when `-p` was given without one (stdin only). */
  print?: string | true;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiMode?: ApiMode;
  profile?: string;
  yolo?: boolean;
  maxRounds?: number;
  /** The `-r` value; true when `-r` was given without an id (pick one). */
  resume?: string | true;
  continue?: boolean;
  outputFormat?: OutputFormat;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  toolsets?: string[];
  verbose?: boolean;
  dir?: string;
  /** `--image FILE`, repeatable: images sent with the first message. */
  image?: string[];
}
