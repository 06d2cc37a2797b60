import { describe, expect, it } from "vitest";
import { makeTestContext } from "../fs/test-context.js";
import clarify from "./clarify.js";

describe("clarify", () => {
  it("asks through ctx.clarify and returns the answer", async () => {
    const asked: Array<[string, string[] | undefined]> = [];
    const ctx = makeTestContext({
      cwd: "/",
      clarify: async (q, choices) => {
        asked.push([q, choices]);
        return "blue";
      },
    });
    const out = await clarify.execute({ question: "Which colour?", choices: ["red", "blue"] }, ctx);
    expect(out).toBe("The user answered: blue");
    expect(asked).toEqual([["Which colour?", ["red", "blue"]]]);
  });

  it("returns a clear error when no user can answer", async () => {
    const out = await clarify.execute({ question: "Which colour?" }, makeTestContext({ cwd: "/" }));
    expect(out).toMatchObject({ isError: true, content: expect.stringContaining("no user is available") });
  });

  it("is interactive and allows at most 4 choices", () => {
    expect(clarify.interactive).toBe(true);
    expect(clarify.parameters.safeParse({ question: "q", choices: ["a", "b", "c", "d", "e"] }).success).toBe(
      false,
    );
  });
});
