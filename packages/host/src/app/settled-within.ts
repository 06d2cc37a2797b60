// Waiting for a promise to settle, but no longer than a bound: close() must not hang on a turn.

/** Resolves when `p` settles (either way) or after `ms`, whichever comes first. */
export async function settledWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([
    p.then(
      () => undefined,
      () => undefined,
    ),
    late,
  ]);
  clearTimeout(timer);
}
