// @joplin/turndown-plugin-gfm ships no type declarations; this is the one export we use.
declare module "@joplin/turndown-plugin-gfm" {
  import type TurndownService from "turndown";
  export function gfm(service: TurndownService): void;
}
