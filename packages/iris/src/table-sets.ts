// The front ends' own table sets (each front end's src/state/), for `iris migrate`: the bin is
// the one package that may import every front end. A front end that moves its tables onto the
// store's table-set mechanism adds its set here.
import type { TableSet } from "@iris/host";

export const FRONT_END_TABLE_SETS: readonly TableSet[] = [];
