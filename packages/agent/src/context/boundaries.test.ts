import type { Message } from "@iris/llm";
import { describe, expect, it } from "vitest";
import { assemble, chooseSummaryRole } from "./assemble.js";
import { headEnd, tailStart } from "./boundaries.js";
import { CUT_RESULT_TEXT, repairOrphans } from "./orphans.js";
import {
  assistant,
  call,
  pairingProblems,
  result,
  round,
  sameRoleNeighbours,
  user,
  wordsOf,
} from "./test-support.js";
import { estimateMessageTokens } from "./tokens.js";

describe("tailStart", () => {
  it("lets the message floor beat the token budget, up to twice the budget", () => {
    const messages: Message[] = [];
    for (let i = 0; i < 10; i++) messages.push(user(wordsOf(1_000)), assistant(wordsOf(1_000)));
    const each = estimateMessageTokens(messages[0] as Message);
    // The budget holds 2 messages, its double 5: a floor of 4 wins, a floor of 8 stops at the cap.
    const budgetTokens = each * 2 + 10;
    expect(tailStart(messages, { budgetTokens, minMessages: 4 })).toBe(16);
    expect(tailStart(messages, { budgetTokens, minMessages: 8 })).toBe(
      20 - Math.floor((budgetTokens * 2) / each),
    );
    expect(tailStart(messages, { budgetTokens: 100_000, minMessages: 2 })).toBe(0);
  });

  it("never starts the tail between a call and its results", () => {
    const messages: Message[] = [user("go")];
    const parallel = call("a", "read_file", { path: "/a" });
    parallel.parts.push({ type: "toolCall", callId: "b", name: "read_file", argumentsJson: "{}" });
    messages.push(parallel, result("a", "read_file", wordsOf(300)), result("b", "read_file", wordsOf(300)));
    messages.push(assistant("done"), user("next"));
    for (let budget = 0; budget < 1_000; budget += 25) {
      const start = tailStart(messages, { budgetTokens: budget, minMessages: 1 });
      expect(messages[start]?.role).not.toBe("tool");
    }
  });

  it("cuts a long turn inside itself instead of protecting it whole from its user message", () => {
    const messages: Message[] = [user("old"), user("the newest ask")];
    for (let i = 0; i < 5; i++) messages.push(call(`c${i}`, "t", {}), result(`c${i}`, "t", wordsOf(200)));
    const start = tailStart(messages, { budgetTokens: 10, minMessages: 1 });
    expect(start).toBe(messages.length - 2); // the newest call group only
    expect(messages[start]?.role).toBe("assistant");
  });
});

describe("headEnd", () => {
  it("extends past the results of a call made in the head and stops before an old summary", () => {
    const messages: Message[] = [
      user("a"),
      call("c", "t", {}),
      result("c", "t", "r"),
      assistant("b"),
      user("c"),
    ];
    expect(headEnd(messages, 2)).toBe(3);
    const withSummary: Message[] = [
      user("[Summary of the earlier conversation]\nold"),
      user("x"),
      assistant("y"),
    ];
    expect(headEnd(withSummary, 3)).toBe(0);
  });
});

describe("summary role", () => {
  it("is chosen from the neighbours", () => {
    expect(chooseSummaryRole(user("u"), assistant("a"))).toBe("merge");
    expect(chooseSummaryRole(user("u"), user("u2"))).toBe("assistant");
    expect(chooseSummaryRole(assistant("a"), assistant("b"))).toBe("user");
    expect(chooseSummaryRole(result("c", "t", "r"), assistant("b"))).toBe("user");
    expect(chooseSummaryRole(undefined, assistant("b"))).toBe("user");
    expect(chooseSummaryRole(undefined, user("b"))).toBe("merge");
  });

  it("never produces two same-role messages in a row", () => {
    const heads: Message[][] = [
      [],
      [user("h")],
      [user("h"), assistant("a")],
      [user("h"), call("c", "t", {}), result("c", "t", "r")],
    ];
    const tails: Message[][] = [
      [user("t")],
      [assistant("t"), user("u")],
      [call("d", "t", {}), result("d", "t", "r"), user("u")],
    ];
    for (const head of heads) {
      for (const tail of tails) {
        const out = assemble(head, "[Summary of the earlier conversation]\ns", tail);
        expect(sameRoleNeighbours(out.messages)).toEqual([]);
        expect(out.messages[0]?.role).toBe("user");
        expect(pairingProblems(out.messages)).toEqual([]);
      }
    }
  });
});

describe("repairOrphans", () => {
  it("stubs calls whose results were cut and removes results whose calls were cut", () => {
    const cut: Message[] = [
      user("a"),
      call("lost-result", "terminal", {}),
      user("b"),
      result("lost-call", "t", "r"),
      assistant("c"),
    ];
    const out = repairOrphans(cut);
    expect(out.stubbed).toEqual(["lost-result"]);
    expect(out.removed).toEqual(["lost-call"]);
    expect(out.messages[2]).toMatchObject({
      role: "tool",
      callId: "lost-result",
      toolName: "terminal",
      content: CUT_RESULT_TEXT,
    });
    expect(pairingProblems(out.messages)).toEqual([]);
    expect(repairOrphans(round(1)).messages).toEqual(round(1));
  });
});
