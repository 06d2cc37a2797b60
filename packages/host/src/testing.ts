// For tests only (check-imports.mjs refuses it to a front end's code): the store under a running
// IrisProcess, so a test can look at and arrange what was stored. Front ends use the process's and
// its sessions' methods instead.
import type { Store } from "@iris/store";
import type { IrisProcess } from "./app/process.js";
import { processStore } from "./app/process-store.js";

export function storeOf(iris: IrisProcess): Store {
  return processStore(iris);
}
