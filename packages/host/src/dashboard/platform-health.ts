// The gateway records each platform's health here; the dashboard shows it (store/platform-health).
import type { PlatformState, Store } from "@iris/store";

/** Never fails the caller: health is a view, a busy store must not stop a gateway. */
export async function recordPlatformHealth(
  store: Store,
  platform: string,
  state: PlatformState,
  error?: string,
): Promise<void> {
  try {
    if (!store.isReadonly) await store.dashboard.health.set(platform, state, error);
  } catch {
    // Busy or closing: the next change records it.
  }
}
