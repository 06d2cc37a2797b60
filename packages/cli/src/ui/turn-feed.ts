// The CLI renders what host's turn view reports (SPEC E5), as ACP, serve and the gateway do:
// the progress lines, the chat's streamed answer, `--verbose`, stream-json and the edit diffs
// all read the changes of one TurnView, never the raw events beside it. A fresh view starts
// after each turn of the session's own (a subagent's end is folded, not a turn's end).
import type { HostEvent, TurnChange, TurnViewState } from "@iris/host";
import { TurnView } from "@iris/host";

export type TurnListener = (change: TurnChange, state: Readonly<TurnViewState>) => void;

export interface TurnFeed {
  /** Hears every change, in the order the listeners were added; returns the detach. */
  on(fn: TurnListener): () => void;
}

export interface OwnedTurnFeed extends TurnFeed {
  /** Stops hearing the session. */
  close(): void;
}

/** A feed over a session's tagged events (`session.subscribe`). */
export function turnFeed(subscribe: (fn: (e: HostEvent) => void) => () => void): OwnedTurnFeed {
  const listeners = new Set<TurnListener>();
  let view = new TurnView();
  const off = subscribe((e) => {
    const change = view.apply(e);
    if (!change) return;
    const { state } = view;
    if (change.kind === "ended") view = new TurnView();
    for (const fn of listeners) {
      try {
        fn(change, state);
      } catch {
        // One renderer failing must not stop the others or the turn.
      }
    }
  });
  return {
    on(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close: off,
  };
}
