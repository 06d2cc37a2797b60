// The configured search backend, or why there is none: what web_search's availability check says
// and what its call uses. The key is read through the environment, so it is registered for
// redaction, and it is only ever sent to the backend's own URL.
import type { ToolEnvironment } from "../../environment.js";
import { SEARCH_BACKENDS } from "./backends.js";
import type { SearchBackend } from "./types.js";

export interface SearchSetup {
  backend: SearchBackend;
  baseUrl: string;
  key: string | undefined;
}

export function searchSetup(env: ToolEnvironment): SearchSetup | string {
  const s = env.web.search;
  if (!s.backend) return "no search backend is configured (set web.search.backend)";
  const backend = SEARCH_BACKENDS[s.backend];
  const baseUrl = s.baseUrl ?? backend.defaultBaseUrl;
  if (!baseUrl) return `web.search.backend ${s.backend} needs web.search.base_url`;
  const keyName = s.apiKeyEnv ?? backend.keyEnv;
  if (!keyName) return { backend, baseUrl, key: undefined };
  const key = env.secret(keyName);
  if (!key) return `web.search.backend ${s.backend} needs a key in ${keyName} (.env or the environment)`;
  return { backend, baseUrl, key };
}
