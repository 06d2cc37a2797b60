// Numbered migrations, applied in order. A migration is never edited once released: add a new one.
import { MIGRATION_0001 } from "./0001_init.js";
import { MIGRATION_0002 } from "./0002_usage_effects.js";
import { MIGRATION_0003 } from "./0003_deferred_search_index.js";
import { MIGRATION_0004 } from "./0004_path_runs.js";
import { MIGRATION_0005 } from "./0005_failure_edges.js";
import { MIGRATION_0012 } from "./0012_gateway.js";
import { MIGRATION_0017 } from "./0017_serve_state.js";
import { MIGRATION_0024 } from "./0024_session_lookup.js";
import { MIGRATION_0025 } from "./0025_identities.js";
import { MIGRATION_0031 } from "./0031_dashboard.js";
import { MIGRATION_0032 } from "./0032_mcp_state_web_pages.js";
import { MIGRATION_0033 } from "./0033_effect_snapshots.js";
import { MIGRATION_0034 } from "./0034_short_id_prefix.js";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "init", sql: MIGRATION_0001 },
  { version: 2, name: "usage_effects", sql: MIGRATION_0002 },
  { version: 3, name: "deferred_search_index", sql: MIGRATION_0003 },
  { version: 4, name: "path_runs", sql: MIGRATION_0004 },
  { version: 5, name: "failure_edges", sql: MIGRATION_0005 },
  { version: 12, name: "gateway", sql: MIGRATION_0012 },
  { version: 17, name: "serve_state", sql: MIGRATION_0017 },
  { version: 24, name: "session_lookup", sql: MIGRATION_0024 },
  { version: 25, name: "identities", sql: MIGRATION_0025 },
  { version: 31, name: "dashboard", sql: MIGRATION_0031 },
  { version: 32, name: "mcp_state_web_pages", sql: MIGRATION_0032 },
  { version: 33, name: "effect_snapshots", sql: MIGRATION_0033 },
  { version: 34, name: "short_id_prefix", sql: MIGRATION_0034 },
];

// The highest number, not the count: versions may leave gaps (numbers are reserved per issue).
export const LATEST_SCHEMA_VERSION = Math.max(0, ...MIGRATIONS.map((m) => m.version));
