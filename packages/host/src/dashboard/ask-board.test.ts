import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FrontEnd } from "@iris/agent";
import { AskBoard, openStore, type Store } from "@iris/store";
import type { ApprovalAnswer, ApprovalRequest } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withAskBoard } from "./ask-board.js";

let dir: string;
let store: Store;
let board: AskBoard;
let sessionId: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-ask-board-"));
  store = openStore(join(dir, "state.db"));
  board = new AskBoard(store.db);
  sessionId = store.createSession({ source: "cli" }).id;
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const request: ApprovalRequest = {
  tool: "terminal",
  command: "rm -rf build",
  reason: "deletes",
  patternKey: "rm",
};

async function waitingAsk(): Promise<string> {
  for (;;) {
    const [ask] = board.waiting();
    if (ask) return ask.id;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("withAskBoard", () => {
  it("leaves a front end that cannot ask as it is while no dashboard runs (scripts keep their answer)", () => {
    const fe = withAskBoard({}, store, sessionId, "cli");
    expect(fe.approve).toBeUndefined();
    expect(fe.clarify).toBeUndefined();
  });

  it("with a dashboard running, a front end that cannot ask waits for the board's answer", async () => {
    board.touchPresence();
    const fe = withAskBoard({}, store, sessionId, "cli");
    const answer = fe.approve!(request);
    const id = await waitingAsk();
    expect(board.get(id)?.question).toMatchObject({ tool: "terminal", command: "rm -rf build" });
    expect(board.answer(id, "session", "dashboard")).toBe(true);
    expect(await answer).toBe("session");
  });

  it("the board's answer withdraws the front end's own question; the front end's answer withdraws the board's", async () => {
    let withdrawn = false;
    let answerLocally: (a: ApprovalAnswer) => void = () => {};
    const own: FrontEnd = {
      approve: (_r, signal) =>
        new Promise<ApprovalAnswer>((resolve) => {
          answerLocally = resolve;
          signal?.addEventListener("abort", () => {
            withdrawn = true;
          });
        }),
    };
    const fe = withAskBoard(own, store, sessionId, "gateway:irc");
    const first = fe.approve!(request);
    board.answer(await waitingAsk(), "deny", "dashboard");
    expect(await first).toBe("deny");
    expect(withdrawn).toBe(true);

    const second = fe.approve!(request);
    const id = await waitingAsk();
    answerLocally("once");
    expect(await second).toBe("once");
    expect(board.get(id)?.state).toBe("withdrawn");
    expect(board.answer(id, "always", "dashboard")).toBe(false);
  });

  it("a clarify question is answered from the board too", async () => {
    board.touchPresence();
    const fe = withAskBoard({}, store, sessionId, "cli");
    const answer = fe.clarify!("which one?", ["a", "b"]);
    const id = await waitingAsk();
    expect(board.get(id)).toMatchObject({
      kind: "clarify",
      question: { question: "which one?", choices: ["a", "b"] },
    });
    board.answer(id, "b", "dashboard");
    expect(await answer).toBe("b");
  });
});
