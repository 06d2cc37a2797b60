// Front-end state that still lives in this package (cron): behind its own async view, so callers
// are written as they will be once it moves into its front end's package as a table set
// (tables/table-set.ts; serve's and the gateway's have). Until then the SQLite repositories
// answer, wrapped by `promised`.

import type { CronControl as CronControlTables } from "./cron-control.js";
import type { CronState as CronTables } from "./gateway-cron.js";

/** The cron jobs and their claimed slots. */
export type CronState = Promised<CronTables>;
export type CronControl = Promised<CronControlTables>;

export interface FrontEndStates {
  readonly cronState: CronState;
  readonly cronControl: CronControl;
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
