// The ask protocol across processes (ARCHITECTURE "one ask protocol"): every approval or clarify
// question a session asks is also published on the store's ask board, so the dashboard can answer
// it by request id from its own process. The first answer wins, the front end's own or the
// board's; the other is withdrawn. A front end with no way to ask (a one-shot run without a
// terminal) waits for the board only while a dashboard is running, so scripts keep their answer.
import { randomUUID } from "node:crypto";
import type { FrontEnd } from "@iris/agent";
import type { AskBoard, Store } from "@iris/store";
import type { ApprovalAnswer, ApprovalRequest } from "@iris/tools";

/** How often a waiting asker looks at the board. */
const POLL_MS = 250;
/** A dashboard that has not said it is there for this long is taken as gone. */
export const PRESENCE_FRESH_MS = 15_000;
/** How long an ask nobody else can answer waits for the dashboard (unless the request says). */
const BOARD_ONLY_WAIT_MS = 10 * 60_000;

/** The abort reason a front end's own question gets when the board answered it first. */
export const ANSWERED_ON_BOARD = "answered-on-dashboard";

const APPROVAL_ANSWERS = new Set<string>(["once", "session", "always", "deny"]);

export async function withAskBoard(
  frontEnd: FrontEnd,
  store: Store,
  sessionId: string,
  source: string,
): Promise<FrontEnd> {
  if (store.isReadonly) return frontEnd;
  const board = store.dashboard.asks;
  const present = async () => {
    try {
      return ((await board.presenceSeenAt()) ?? 0) > Date.now() - PRESENCE_FRESH_MS;
    } catch {
      return false;
    }
  };
  // Decided once per turn: `interactive` (whether anyone can approve) follows `approve` existing.
  // A front end that asks both kinds itself needs no presence read (an API server's every request).
  const dashboard = frontEnd.approve && frontEnd.clarify ? false : await present();
  if (!frontEnd.approve && !frontEnd.clarify && !dashboard) return frontEnd;
  const out = otherParts(frontEnd);
  const ownApprove = frontEnd.approve?.bind(frontEnd);
  if (ownApprove || dashboard)
    out.approve = (request, signal) =>
      race<ApprovalAnswer>(board, {
        sessionId,
        source,
        kind: "approval",
        question: approvalQuestion(request),
        ask: ownApprove ? (s) => ownApprove(request, s) : undefined,
        fallback: "deny",
        accept: (a) => (APPROVAL_ANSWERS.has(a) ? (a as ApprovalAnswer) : undefined),
        waitMs: request.timeoutSeconds ? request.timeoutSeconds * 1000 : BOARD_ONLY_WAIT_MS,
        signal,
      });
  const ownClarify = frontEnd.clarify?.bind(frontEnd);
  if (ownClarify || dashboard)
    out.clarify = (question, choices, signal, callId) =>
      race<string>(board, {
        sessionId,
        source,
        kind: "clarify",
        question: { question, ...(choices ? { choices } : {}) },
        ask: ownClarify ? (s) => ownClarify(question, choices, s, callId) : undefined,
        fallback: "(no answer came; decide yourself)",
        accept: (a) => a,
        waitMs: BOARD_ONLY_WAIT_MS,
        signal,
      });
  return out;
}

/** The front end's parts other than its two asks, as they are. A plain object, not one made with
 * Object.create(frontEnd): that made each turn's front end a prototype, a cost of its own in every
 * API request. */
function otherParts(frontEnd: FrontEnd): FrontEnd {
  const { files, beforeTool, afterTool } = frontEnd;
  const out = {
    files,
    beforeTool: beforeTool?.bind(frontEnd),
    afterTool: afterTool?.bind(frontEnd),
  } satisfies Record<Exclude<keyof FrontEnd, "approve" | "clarify">, unknown>;
  return out;
}

function approvalQuestion(r: ApprovalRequest): object {
  return { tool: r.tool, command: r.command, reason: r.reason, ...(r.cwd ? { cwd: r.cwd } : {}) };
}

interface RaceOptions<T> {
  sessionId: string;
  source: string;
  kind: "approval" | "clarify";
  question: object;
  ask: ((signal: AbortSignal) => Promise<T>) | undefined;
  fallback: T;
  accept: (answer: string) => T | undefined;
  waitMs: number;
  signal: AbortSignal | undefined;
}

async function race<T>(board: AskBoard, o: RaceOptions<T>): Promise<T> {
  const id = randomUUID();
  try {
    await board.publish({ id, sessionId: o.sessionId, kind: o.kind, source: o.source, question: o.question });
  } catch {
    // The board is busy or unwritable: ask the way the front end always did.
    return o.ask ? o.ask(o.signal ?? new AbortController().signal) : o.fallback;
  }
  const local = new AbortController();
  // The front end reads the reason ("timeout", "cancelled") to say why its question went away.
  const stopLocal = () => local.abort(o.signal?.reason);
  o.signal?.addEventListener("abort", stopLocal, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const fromBoard = new Promise<T>((resolve) => {
      const deadline = Date.now() + o.waitMs;
      const look = async () => {
        if (local.signal.aborted) return resolve(o.fallback);
        let row: Awaited<ReturnType<AskBoard["get"]>>;
        try {
          row = await board.get(id);
        } catch {
          row = undefined; // busy: look again
        }
        if (row?.state === "answered" && row.answer !== null) {
          const answer = o.accept(row.answer);
          if (answer !== undefined) return resolve(answer);
        }
        if (row?.state === "withdrawn") return resolve(o.fallback);
        if (!o.ask && Date.now() > deadline) return resolve(o.fallback);
        timer = setTimeout(look, POLL_MS);
      };
      void look();
    });
    const answers: Promise<T>[] = [fromBoard];
    if (o.ask) answers.push(o.ask(local.signal));
    return await Promise.race(answers);
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener("abort", stopLocal);
    // The loser stops asking: the terminal prompt or chat button is withdrawn.
    local.abort(ANSWERED_ON_BOARD);
    try {
      await board.withdraw(id);
    } catch {
      // A crash-left row is withdrawn by the dashboard (its pid is gone).
    }
  }
}
