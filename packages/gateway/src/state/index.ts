// The gateway's state: its table set brought up to date in the profile's store, then the engine
// for the store's dialect.
import { randomUUID } from "node:crypto";
import type { IrisProcess } from "@iris/host";
import { PostgresGatewayState, processLockName } from "./postgres.js";
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
  if (tables.dialect === "sqlite")
    return { state: new SqliteGatewayState(tables), identities: new SqliteGatewayIdentities(tables) };
  // This process's id on the shared tables, locked while it lives on one connection that also
  // holds its bot connections' locks: a process that dies frees them all at once.
  const owner = randomUUID();
  const locks = await tables.lockSession();
  if (!(await locks.tryLock(processLockName(owner))))
    throw new Error(`the gateway's process lock ${owner} is held by another process`);
  return {
    state: new PostgresGatewayState(tables, owner, locks),
    identities: new PostgresGatewayIdentities(tables),
    tryLock: async (name) =>
      (await locks.tryLock(name))
        ? // Released after the store closed: the lock went with the connection already.
          { lost: locks.lost, release: () => locks.unlock(name).catch(() => {}) }
        : undefined,
    processLock: { lost: locks.lost, release: () => locks.close() },
  };
}
