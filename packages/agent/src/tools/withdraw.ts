// A question to the user (approval, clarify) belongs to its turn: when the turn is aborted the
// question is withdrawn and answered with `fallback` (deny, an empty answer), so no prompt is left
// waiting for a turn that no longer exists.
export function withdrawOnAbort<T>(asking: Promise<T>, signal: AbortSignal, fallback: T): Promise<T> {
  if (signal.aborted) return Promise.resolve(fallback);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => resolve(fallback);
    signal.addEventListener("abort", onAbort, { once: true });
    asking.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
