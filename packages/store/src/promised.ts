// The SQLite engine's async views of its synchronous repositories (the shared states of
// sqlite-store.ts): each method answers a settled promise, as an engine across a network would.

/**
 * A method-for-method async view of a synchronous repository.
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
