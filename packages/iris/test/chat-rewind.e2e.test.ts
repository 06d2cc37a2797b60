// /rewind in the chat: the conversation and the files that write_file and patch changed go back
// to how they were before a user message. A real pseudo-terminal against the fake LLM server.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "@iris/host";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, runIris, type TempHome } from "./helpers.js";
import { type PtySession, trackedPtys } from "./pty.js";

let fake: FakeLlm;
let home: TempHome;
let work: string;
let close: () => Promise<void>;
const ptys = trackedPtys();
beforeEach(async () => {
  ({ fake, home, work, close } = await fakeHome(true));
});
afterEach(async () => {
  ptys.killOpen();
  await close();
});

type Body = { messages: { role: string; content: unknown }[] };
const usersOf = (i: number) =>
  (fake.requests[i]!.body as Body).messages.filter((m) => m.role === "user").map((m) => String(m.content));
const answered = (t: PtySession, text: string) => t.waitFor(new RegExp(`${text}[\\s\\S]*› $`));
const read = (f: string) => readFileSync(join(work, f), "utf8");

describe("/rewind", () => {
  it("puts back the files and the conversation of the last message, then of message 1", async () => {
    writeFileSync(join(home.home, "config.yaml"), "approvals:\n  mode: off\n");
    writeFileSync(join(work, "app.txt"), "version 1\n");
    fake.enqueue(
      { toolCalls: [{ name: "write_file", arguments: { path: "app.txt", content: "version 2\n" } }] },
      { text: "one done" },
      {
        toolCalls: [
          {
            name: "patch",
            arguments: { path: "app.txt", old_string: "version 2", new_string: "version 3" },
          },
          { name: "write_file", arguments: { path: "notes/new.txt", content: "made\n" } },
        ],
      },
      { text: "two done" },
      { text: "three done" },
      { text: "four done" },
    );
    const t = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    t.type("first\r");
    await answered(t, "one done");
    t.type("second\r");
    await answered(t, "two done");
    expect(read("app.txt")).toBe("version 3\n");
    expect(read("notes/new.txt")).toBe("made\n");

    t.type("/rewind\r");
    await t.waitFor('rewound to before message 2 ("second")');
    await t.waitFor(`removed ${join(work, "notes", "new.txt")} (the turn created it)`);
    expect(read("app.txt")).toBe("version 2\n");
    expect(existsSync(join(work, "notes", "new.txt"))).toBe(false);
    t.type("third\r");
    await answered(t, "three done");
    expect(usersOf(4)).toEqual(["first", "third"]);

    t.type("/rewind 1\r");
    await t.waitFor('rewound to before message 1 ("first")');
    await t.waitFor(`restored ${join(work, "app.txt")}`);
    expect(read("app.txt")).toBe("version 1\n");
    t.type("fourth\r");
    await answered(t, "four done");
    expect(usersOf(5)).toEqual(["fourth"]);
    t.type("/rewind 7\r");
    await t.waitFor("no user message 7 in this session (it has 1");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("rewinds in a resumed session what an earlier process changed, from the effect receipts", async () => {
    writeFileSync(join(home.home, "config.yaml"), "approvals:\n  mode: off\n");
    writeFileSync(join(work, "app.txt"), "version 1\n");
    fake.enqueue(
      { toolCalls: [{ name: "write_file", arguments: { path: "app.txt", content: "version 2\n" } }] },
      { text: "one done" },
    );
    const env = { IRIS_HOME: home.home };
    const first = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], env, work);
    await first.waitFor("› ");
    first.type("first\r");
    await answered(first, "one done");
    first.type("/exit\r");
    expect(await first.exited).toBe(0);
    expect(read("app.txt")).toBe("version 2\n");
    // The file as it was before the write is part of the write's receipt, in state.db.
    const kept = snapshotRows();
    expect(kept).toEqual([
      { tool: "write_file", status: "completed", path: join(work, "app.txt"), content: "version 1\n" },
    ]);
    const sessionId = sessionOfReceipts();

    const again = ptys.start([...routeArgs(fake.baseUrl, "chat_completions"), "-c"], env, work);
    await again.waitFor("› ");
    again.type("/rewind\r");
    await again.waitFor('rewound to before message 1 ("first")');
    await again.waitFor(`restored ${join(work, "app.txt")}`);
    expect(read("app.txt")).toBe("version 1\n");
    again.type("/exit\r");
    expect(await again.exited).toBe(0);
    // Deleting the session deletes its receipts and their snapshots.
    const del = await runIris(["sessions", "delete", sessionId], { env });
    expect(del.code).toBe(0);
    expect(snapshotRows()).toEqual([]);
  }, 60_000);

  it("names a file whose copy was too large to keep, and leaves it as it is", async () => {
    writeFileSync(join(home.home, "config.yaml"), "approvals:\n  mode: off\n");
    const big = `${"x".repeat(9 * 1024 * 1024)}\n`;
    writeFileSync(join(work, "big.txt"), big);
    fake.enqueue(
      { toolCalls: [{ name: "write_file", arguments: { path: "big.txt", content: "small\n" } }] },
      { text: "one done" },
    );
    const t = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    t.type("first\r");
    await answered(t, "one done");
    t.type("/rewind\r");
    await t.waitFor(`not restored: ${join(work, "big.txt")}: no copy was kept (larger than 8 MiB)`);
    expect(read("big.txt")).toBe("small\n");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});

type SnapshotRow = { tool: string; status: string; path: string; content: string | null };

/** The file snapshots in the effect receipts of the profile's state.db. */
function snapshotRows(): SnapshotRow[] {
  const store = openStore(join(home.home, "state.db"));
  try {
    return (
      store.db
        .prepare(
          "SELECT e.tool, e.status, s.path, s.content FROM effect_snapshots s JOIN effects e ON e.id = s.effect_id",
        )
        .all() as { tool: string; status: string; path: string; content: Buffer | null }[]
    ).map((r) => ({ ...r, content: r.content ? r.content.toString("utf8") : null }));
  } finally {
    store.close();
  }
}

function sessionOfReceipts(): string {
  const store = openStore(join(home.home, "state.db"));
  try {
    return (store.db.prepare("SELECT session_id FROM effects").get() as { session_id: string }).session_id;
  } finally {
    store.close();
  }
}
