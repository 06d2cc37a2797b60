// Host's records of a profile, as `iris sessions/usage/effects/context/migrate` read them without
// a process: the profile's store opened by host, sessions found and read, a front end's own
// table set opened and migrated through it, and nothing left open after close().
import { join } from "node:path";
import { ZERO_USAGE } from "@iris/llm";
import { openStore, type TableSet } from "@iris/store";
import { type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { loadProfile, type Profile } from "../config/index.js";
import { StoredRecords } from "./stored-records.js";

let dir: TempDir;
let profile: Profile;
beforeEach(() => {
  dir = tempDir("stored-records");
  const loaded = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  profile = loaded;
});
afterEach(() => dir.cleanup());

const DEMO: TableSet = {
  owner: "demo",
  sqlite: [{ version: 1, name: "notes", sql: "CREATE TABLE demo_notes (id INTEGER PRIMARY KEY, body TEXT)" }],
  postgres: [
    { version: 1, name: "notes", sql: "CREATE TABLE demo_notes (id BIGINT PRIMARY KEY, body TEXT)" },
  ],
};

it("finds, reads and deletes the profile's sessions, and opens a front end's table set", async () => {
  const seed = openStore(join(dir.path, "state.db"));
  const row = await seed.createSession({ source: "cli", provider: "openai", model: "gpt-4o" });
  await seed.appendNodes(row.id, [
    { kind: "message", message: { role: "user", content: "what is 6 times 7?" } },
    {
      kind: "message",
      message: {
        role: "assistant",
        parts: [{ type: "text", text: "42" }],
        origin: { provider: "openai", apiMode: "chat_completions", model: "gpt-4o" },
        usage: ZERO_USAGE,
        stopReason: "end",
      },
    },
  ]);
  await seed.close();

  const records = await StoredRecords.open(profile);
  try {
    expect((await records.recent({ limit: 10 })).map((s) => s.id)).toEqual([row.id]);
    const found = await records.lookUp(row.id.slice(0, 8));
    expect(found.ok && found.row.id).toBe(row.id);
    expect((await records.history(row.id)).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(await records.effects({ all: true })).toEqual([]);
    expect(await records.usageForSession(row.id)).toEqual([]);

    const tables = await records.openTables(DEMO);
    if (tables.dialect !== "sqlite") throw new Error("expected the SQLite port");
    tables.run("INSERT INTO demo_notes (id, body) VALUES (?, ?)", 1, "kept");
    expect(tables.get<{ body: string }>("SELECT body FROM demo_notes WHERE id = ?", 1)?.body).toBe("kept");
    expect(await records.migrateTables(DEMO)).toEqual({ version: 1, latest: 1 });

    await records.deleteSession(row.id);
    expect(await records.recent({ limit: 10 })).toEqual([]);
  } finally {
    await records.close();
  }
});
