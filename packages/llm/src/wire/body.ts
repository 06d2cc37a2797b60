/**
 * The history goes last: everything before it (model, tools, options) is the same from round to
 * round, so consecutive requests share one long byte prefix (SPEC U5).
 */
export function historyLast(body: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: history, ...rest } = body;
  return { ...rest, [key]: history };
}
