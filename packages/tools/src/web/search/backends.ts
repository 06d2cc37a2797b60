import type { SearchBackendName } from "../../environment.js";
import { brave } from "./brave.js";
import { exa } from "./exa.js";
import { local } from "./local.js";
import { searxng } from "./searxng.js";
import { tavily } from "./tavily.js";
import type { SearchBackend } from "./types.js";

export const SEARCH_BACKENDS: Readonly<Record<SearchBackendName, SearchBackend>> = {
  searxng,
  brave,
  tavily,
  exa,
  local,
};
