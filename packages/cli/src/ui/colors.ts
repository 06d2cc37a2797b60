// Colours only where they help: a terminal, NO_COLOR unset (https://no-color.org), TERM not
// "dumb". FORCE_COLOR=1 turns them on anyway (e.g. for a pager that understands them).
export interface Style {
  enabled: boolean;
  bold(s: string): string;
  dim(s: string): string;
  italic(s: string): string;
  underline(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
}

export function colorsWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

const wrap = (on: boolean, open: number, close: number) => (s: string) =>
  on && s ? `\u001b[${open}m${s}\u001b[${close}m` : s;

export function makeStyle(enabled: boolean): Style {
  return {
    enabled,
    bold: wrap(enabled, 1, 22),
    dim: wrap(enabled, 2, 22),
    italic: wrap(enabled, 3, 23),
    underline: wrap(enabled, 4, 24),
    red: wrap(enabled, 31, 39),
    green: wrap(enabled, 32, 39),
    yellow: wrap(enabled, 33, 39),
    cyan: wrap(enabled, 36, 39),
    magenta: wrap(enabled, 35, 39),
  };
}

export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  return makeStyle(colorsWanted(stream, env));
}
