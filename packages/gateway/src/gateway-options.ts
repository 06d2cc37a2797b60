// What a Gateway is built from (runner.ts): the process, its platforms' adapters and rules, the
// gateway config and the callbacks a front end watches the platforms with.
import type { GatewayConfig, IrisProcess } from "@iris/host";
import type { Logger } from "@iris/llm";
import type { HandleOutcome, PlatformAdapter } from "./adapter.js";
import type { DeliveryQueues } from "./cron-deliveries.js";
import type { PlatformRules } from "./platforms/configured.js";
import type { GatewayTables } from "./state/index.js";
import type { GatewayTools } from "./tools.js";

export type { HandleOutcome };

export interface GatewayOptions {
  iris: IrisProcess;
  /** The gateway's own tables (state/: chats, dedupe, outbox, pairing, logins), opened on `iris`. */
  tables: GatewayTables;
  adapters: PlatformAdapter[];
  /** Per platform id: its allowed users, send targets and formatting hint (from its plugin). */
  rules?: Readonly<Record<string, PlatformRules>>;
  config: GatewayConfig;
  cwd: string;
  logger: Logger;
  /** Open sessions kept in memory at most (default 200). */
  maxOpenChats?: number;
  /** Where hook handlers live (default: the profile's hooks/ folder). */
  hooksDir?: string;
  hookTimeoutMs?: number;
  /** The gateway's send_message and cronjob tools (registered when the process opened). */
  tools?: GatewayTools;
  /** The cron tick (default 60 s; tests make it shorter). */
  cronTickMs?: number;
  /**
   * A Postgres profile's delivery queues: cron runs under the leader in `iris worker`s
   * (cron-queue.ts), and this gateway sends their answers; without them it runs cron itself.
   */
  deliveries?: DeliveryQueues;
  /** How often old dedupe and outbox rows are dropped (default hourly; tests make it shorter). */
  pruneEveryMs?: number;
  /** A platform's start-up warning, for the operator's terminal (AdapterHost.warn). */
  onWarning?: (platform: string, line: string) => void;
  /** A platform stopped for good while running (the others keep running). */
  onPlatformStopped?: (platform: string, reason: string) => void;
  /** A platform's health changed: degraded (sends failing, connection lost, with why) or connected again. */
  health?: (platform: string, state: "connected" | "degraded", error?: string) => void;
}
