// The local backend needs no key and no network: it searches the pages the web tools have read in
// this profile (the environment's page index: the store's, so pages read by earlier processes
// count too), by words, and by two-character pieces for Korean, Chinese and Japanese.
import type { SearchBackend } from "./types.js";

export const local: SearchBackend = {
  name: "local",
  defaultBaseUrl: "local:",
  search: async (r) => r.pages.search(r.query, r.count),
};
