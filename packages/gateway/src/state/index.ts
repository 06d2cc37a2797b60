// The gateway's state: its table set brought up to date in the profile's store, then the engine
// for the store's dialect.
import type { IrisProcess } from "@iris/host";
import { PostgresGatewayState } from "./postgres.js";
import { PostgresGatewayIdentities } from "./postgres-identities.js";
import { SqliteGatewayState } from "./sqlite.js";
import { SqliteGatewayIdentities } from "./sqlite-identities.js";
import type { GatewayTables } from "./state.js";
import { GATEWAY_TABLES } from "./tables.js";

export type {
  ApprovedRow,
  ApproveResult,
  BindingRow,
  ConnectionLock,
  GatewayIdentities,
  GatewayState,
  GatewayTables,
  InboundRow,
  IssueResult,
  Login,
  LoginRow,
  OutboxRow,
  PairingRow,
} from "./state.js";
export { LOGIN_TOKEN_PREFIX, PAIRING_CODE_LENGTH, PAIRING_MAX_FAILURES } from "./state.js";
export { GATEWAY_TABLES };

export async function openGatewayTables(iris: Pick<IrisProcess, "openTables">): Promise<GatewayTables> {
  const tables = await iris.openTables(GATEWAY_TABLES);
  return tables.dialect === "sqlite"
    ? { state: new SqliteGatewayState(tables), identities: new SqliteGatewayIdentities(tables) }
    : {
        state: new PostgresGatewayState(tables),
        identities: new PostgresGatewayIdentities(tables),
        tryLock: (name) => tables.tryLock(name),
      };
}
