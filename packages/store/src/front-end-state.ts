// Front-end state that still lives in this package (gateway, the dashboard's tables,
// MCP server states, read web pages): each table set behind its own async view, so callers are
// written as they will be once each moves into its front end's package as a table set
// (tables/table-set.ts; serve's has). Until then the SQLite repositories answer, wrapped by
// `promised`.

import type { AskBoard as AskTables } from "./dashboard-asks.js";
import type { DashboardReads as DashboardQueries } from "./dashboard-reads.js";
import type { GatewayState as GatewayTables } from "./gateway.js";
import type { GatewayIdentities as IdentityTables } from "./gateway-identities.js";
import type { McpStates as McpTables } from "./mcp-state.js";
import type { PlatformHealth as HealthTables } from "./platform-health.js";
import type { WebPages as WebPageTables } from "./web-pages.js";

/** The gateway's chats, inbound dedupe, outbox and pairing. */
export type GatewayState = Promised<GatewayTables>;
/** The gateway's logins and identity bindings. */
export type GatewayIdentities = Promised<IdentityTables>;
export type DashboardReads = Promised<DashboardQueries>;
export type AskBoard = Promised<AskTables>;
export type PlatformHealth = Promised<HealthTables>;
export type McpStates = Promised<McpTables>;
export type WebPages = Promised<WebPageTables>;

export interface DashboardState {
  reads: DashboardReads;
  asks: AskBoard;
  health: PlatformHealth;
}

export interface FrontEndStates {
  readonly gatewayState: GatewayState;
  readonly gatewayIdentities: GatewayIdentities;
  /** The dashboard's reads and its tables (ask board, platform health). */
  readonly dashboard: DashboardState;
  /** Each running process's MCP server states (the dashboard reads them). */
  readonly mcpStates: McpStates;
  /** The pages the web tools read (the local search backend). */
  readonly webPages: WebPages;
}

/**
 * A method-for-method async view of a synchronous repository: what front-end state offers until
 * each set of tables has an engine per backend.
 */
export type Promised<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : T[K];
};

/**
 * Wraps each method of `target` (its prototype chain's) as an async function: a synchronous
 * throw becomes a rejected promise, as it would be on an engine across a network. Getters stay.
 */
export function promised<T extends object>(target: T): Promised<T> {
  const out: Record<string, unknown> = {};
  for (let proto = Object.getPrototypeOf(target); proto && proto !== Object.prototype; ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === "constructor" || Object.hasOwn(out, name)) continue;
      const d = Object.getOwnPropertyDescriptor(proto, name);
      const fn = d?.value;
      if (typeof fn === "function") out[name] = async (...args: unknown[]) => fn.apply(target, args);
      else if (d?.get) {
        const get = d.get;
        Object.defineProperty(out, name, { get: () => get.call(target), enumerable: true });
      }
    }
    proto = Object.getPrototypeOf(proto);
  }
  return out as Promised<T>;
}
