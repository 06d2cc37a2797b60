// The user's hooks (config.yaml `hooks:`) through the built bin against the fake LLM server:
// each gets its event as JSON on stdin; a pre_tool_use hook exiting 2 blocks the call (the model
// is told why, nothing runs); another failure is reported and the call runs; turn_end sees the answer.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, runIris, type TempHome } from "./helpers.js";
import { trackedPtys } from "./pty.js";

let fake: FakeLlm;
let home: TempHome;
let work: string;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ fake, home, work, close } = await fakeHome(true));
});
const ptys = trackedPtys();
afterEach(async () => {
  ptys.killOpen();
  await close();
});

type Body = { messages: { role: string; content: unknown }[] };

describe("user hooks", () => {
  it("pre_tool_use blocks with exit 2, post_tool_use and turn_end see their events", async () => {
    const log = join(home.home, "hooks.log");
    const hook = join(home.home, "hook.sh");
    writeFileSync(
      hook,
      [
        "input=$(cat)",
        `printf '%s %s\\n' "$1" "$input" >> '${log}'`,
        `case "$1:$input" in pre:*'"rm '*) echo 'no rm here' >&2; exit 2;; esac`,
        "exit 0",
      ].join("\n"),
    );
    writeFileSync(
      join(home.home, "config.yaml"),
      [
        "approvals:",
        "  mode: off",
        "hooks:",
        "  pre_tool_use:",
        "    - matcher: terminal|patch",
        `      command: sh '${hook}' pre`,
        "    - command: exit 1",
        "  post_tool_use:",
        `    - command: sh '${hook}' post`,
        "  turn_end:",
        `    - command: sh '${hook}' end`,
      ].join("\n"),
    );
    mkdirSync(join(work, "keep"));
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "echo hello" } }] },
      { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf keep" } }] },
      { text: "all done" },
    );
    const r = await runIris(["-p", "go", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home },
      cwd: work,
    });
    expect(r.stdout).toBe("all done\n");
    expect(r.code).toBe(0);
    // The failing hook without a matcher was reported and blocked nothing; hooks run in order, so
    // the call the first one blocked never reached it.
    expect(r.stderr.match(/iris: warning: pre_tool_use hook 'exit 1' exited 1/g)).toHaveLength(1);
    expect(existsSync(join(work, "keep"))).toBe(true);
    const toolAnswer = (i: number) =>
      (fake.requests[i]!.body as Body).messages
        .filter((m) => m.role === "tool")
        .map((m) => String(m.content));
    expect(toolAnswer(1)[0]).toContain("hello");
    expect(toolAnswer(2)[1]).toContain("blocked by a hook: no rm here");

    const events = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => ({ kind: l.slice(0, l.indexOf(" ")), event: JSON.parse(l.slice(l.indexOf(" ") + 1)) }));
    expect(events.map((e) => `${e.kind}:${e.event.hook_event_name}:${e.event.tool_name ?? ""}`)).toEqual([
      "pre:pre_tool_use:terminal",
      "post:post_tool_use:terminal",
      "pre:pre_tool_use:terminal",
      "post:post_tool_use:terminal",
      "end:turn_end:",
    ]);
    expect(events[0]!.event.tool_input).toEqual({ command: "echo hello" });
    expect(events[0]!.event.cwd).toBe(work);
    expect(events[1]!.event.tool_result).toContain("hello");
    expect(events[1]!.event.is_error).toBe(false);
    expect(events[3]!.event.tool_result).toContain("blocked by a hook");
    expect(events[3]!.event.is_error).toBe(true);
    expect(events[4]!.event).toMatchObject({ reason: "natural", answer: "all done" });
    expect(events[4]!.event.session_id).toBe(events[0]!.event.session_id);
  });

  it("a hook with a bad matcher is a config error naming its key", async () => {
    writeFileSync(
      join(home.home, "config.yaml"),
      "hooks:\n  pre_tool_use:\n    - matcher: '(unclosed'\n      command: 'true'\n",
    );
    const r = await runIris(["-p", "go", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home },
      cwd: work,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config\.yaml:3:\d+: hooks\.pre_tool_use\[0\]\.matcher: a regular expression/);
  });

  it("in the chat: a blocked call is shown as failed with the hook's reason, turn_end runs after each turn", async () => {
    const log = join(home.home, "ends.log");
    writeFileSync(
      join(home.home, "config.yaml"),
      [
        "approvals:",
        "  mode: off",
        "hooks:",
        "  pre_tool_use:",
        "    - matcher: write_file",
        "      command: echo 'writes are frozen' >&2; exit 2",
        "  turn_end:",
        `    - command: cat >> '${log}'; echo >> '${log}'`,
      ].join("\n"),
    );
    fake.enqueue(
      { toolCalls: [{ name: "write_file", arguments: { path: "x.txt", content: "x" } }] },
      { text: "could not write" },
    );
    const t = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    t.type("write it\r");
    await t.waitFor(/could not write[\s\S]*› $/);
    expect(t.screen()).toMatch(/✗ write_file[^\n]*\n\s+blocked by a hook: writes are frozen/);
    expect(existsSync(join(work, "x.txt"))).toBe(false);
    expect(JSON.parse(readFileSync(log, "utf8").trim())).toMatchObject({
      hook_event_name: "turn_end",
      reason: "natural",
      answer: "could not write",
    });
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("in the chat: post_tool_use runs after each call and has finished before the model is asked again", async () => {
    const log = join(home.home, "post.log");
    writeFileSync(
      join(home.home, "config.yaml"),
      [
        "approvals:",
        "  mode: off",
        "hooks:",
        "  post_tool_use:",
        "    - matcher: terminal",
        // Slow on purpose: the next request must wait for it, not race it.
        `      command: sleep 0.5; cat >> '${log}'; echo >> '${log}'`,
      ].join("\n"),
    );
    const seenAtRequest: string[] = [];
    const replies: object[] = [
      { toolCalls: [{ name: "terminal", arguments: { command: "echo from-the-tool" } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "nothing.txt" } }] },
      { text: "all seen" },
    ];
    fake.setHandler((req) => {
      if (req.apiMode === "chat_completions")
        seenAtRequest.push(existsSync(log) ? readFileSync(log, "utf8") : "");
      return (replies.shift() ?? { text: "(nothing scripted)" }) as never;
    });
    const t = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    t.type("run it\r");
    await t.waitFor(/all seen[\s\S]*› $/);
    // The second request was sent after the hook had written its event; read_file matched no hook.
    expect(seenAtRequest[0]).toBe("");
    const [event] = seenAtRequest[1]!
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(event).toMatchObject({ hook_event_name: "post_tool_use", tool_name: "terminal", is_error: false });
    expect(event.tool_input).toEqual({ command: "echo from-the-tool" });
    expect(event.tool_result).toContain("from-the-tool");
    expect(seenAtRequest[2]).toBe(seenAtRequest[1]);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});
