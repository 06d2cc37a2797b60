import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FrontEnd } from "@iris/agent";
import { type AskBoard, openStore, type SqliteStore as Store } from "@iris/store";
import type { ApprovalAnswer, ApprovalRequest } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withAskBoard } from "./ask-board.js";

let dir: string;
let store: Store;
let board: AskBoard;
let sessionId: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "iris-ask-board-"));
  store = openStore(join(dir, "state.db"));
  board = store.dashboard.asks;
  sessionId = (await store.createSession({ source: "cli" })).id;
});
afterEach(async () => {
  await store.close();
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
    const [ask] = await board.waiting();
    if (ask) return ask.id;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("withAskBoard", () => {
  it("leaves a front end that cannot ask as it is while no dashboard runs (scripts keep their answer)", async () => {
    const fe = await withAskBoard({}, store, sessionId, "cli");
    expect(fe.approve).toBeUndefined();
    expect(fe.clarify).toBeUndefined();
  });

  it("with a dashboard running, a front end that cannot ask waits for the board's answer", async () => {
    await board.touchPresence();
    const fe = await withAskBoard({}, store, sessionId, "cli");
    const answer = fe.approve!(request);
    const id = await waitingAsk();
    expect((await board.get(id))?.question).toMatchObject({ tool: "terminal", command: "rm -rf build" });
    expect(await board.answer(id, "session", "dashboard")).toBe(true);
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
    const fe = await withAskBoard(own, store, sessionId, "gateway:irc");
    const first = fe.approve!(request);
    await board.answer(await waitingAsk(), "deny", "dashboard");
    expect(await first).toBe("deny");
    expect(withdrawn).toBe(true);

    const second = fe.approve!(request);
    const id = await waitingAsk();
    answerLocally("once");
    expect(await second).toBe("once");
    expect((await board.get(id))?.state).toBe("withdrawn");
    expect(await board.answer(id, "always", "dashboard")).toBe(false);
  });

  it("a clarify question is answered from the board too", async () => {
    await board.touchPresence();
    const fe = await withAskBoard({}, store, sessionId, "cli");
    const answer = fe.clarify!("which one?", ["a", "b"]);
    const id = await waitingAsk();
    expect(await board.get(id)).toMatchObject({
      kind: "clarify",
      question: { question: "which one?", choices: ["a", "b"] },
    });
    await board.answer(id, "b", "dashboard");
    expect(await answer).toBe("b");
  });
});
