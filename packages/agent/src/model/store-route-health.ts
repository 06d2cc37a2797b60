// Route cooldowns kept in the profile's store (migration 0005), shared by every process.
import type { Store } from "@iris/store";
import type { RouteHealth } from "./cooldown.js";

export class StoreRouteHealth implements RouteHealth {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async get(routeKey: string): Promise<{ untilMs: number } | undefined> {
    const row = await this.store.routeCooldowns.get(routeKey);
    return row && row.untilMs > this.now() ? { untilMs: row.untilMs } : undefined;
  }

  set(routeKey: string, untilMs: number, reason: string | undefined): Promise<void> {
    return this.store.routeCooldowns.set(routeKey, untilMs, reason, this.now());
  }

  clear(routeKey: string): Promise<void> {
    return this.store.routeCooldowns.clear(routeKey);
  }
}
