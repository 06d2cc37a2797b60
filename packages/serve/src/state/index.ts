// `iris serve`'s state: its table set brought up to date in the profile's store, then the engine
// for the store's dialect.
import type { IrisProcess } from "@iris/host";
import { PostgresServeState } from "./postgres.js";
import type { ServeState } from "./serve-state.js";
import { SqliteServeState } from "./sqlite.js";
import { SERVE_TABLES } from "./tables.js";

export type { Bounds, RecordedAnswer, RequestCounter, ServeState, StoredEntry } from "./serve-state.js";
export type { StreamEvent, StreamLog, StreamStatus } from "./stream-log.js";
export { SERVE_TABLES };

export async function openServeState(iris: Pick<IrisProcess, "openTables">): Promise<ServeState> {
  const tables = await iris.openTables(SERVE_TABLES);
  return tables.dialect === "sqlite" ? new SqliteServeState(tables) : new PostgresServeState(tables);
}
