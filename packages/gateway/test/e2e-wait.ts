// What the platform end-to-end tests share beyond profile.ts: waiting for a condition, and a
// tiny image to send.

/** Polls `get` until `ok` holds; throws naming `what` and the last value after `ms`. */
export async function until<T>(get: () => T, ok: (v: T) => boolean, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (ok(v)) return v;
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A 1×1 PNG. */
export const ONE_PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/pV3CbwAAAABJRU5ErkJggg==",
  "base64",
);
