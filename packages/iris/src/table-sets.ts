// The front ends' own table sets (each front end's src/state/), for `iris migrate`: the bin is
// the one package that may import every front end. A front end that moves its tables onto the
// store's table-set mechanism adds its set here (from a light entry of its package: no server).

import { CRON_TABLES } from "@iris/gateway/cron-state";
import { GATEWAY_TABLES } from "@iris/gateway/tables";
import type { TableSet } from "@iris/host";
import { SERVE_TABLES } from "@iris/serve/tables";

export const FRONT_END_TABLE_SETS: readonly TableSet[] = [SERVE_TABLES, GATEWAY_TABLES, CRON_TABLES];
