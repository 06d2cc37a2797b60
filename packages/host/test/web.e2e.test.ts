// search → extract through the agent loop (SPEC T): a session on the fake LLM server calls
// web_search (a Brave-format fake whose key is in the profile's .env) and web_extract on the
// result; the next model request carries the results and the page as clean Markdown. A redirect
// to a loopback address is refused inside the turn, and the model reads why. The local backend
// finds, in a later process, the pages an earlier one read (kept in the profile's store, SQLite
// or Postgres).
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type PostgresServer,
  type SearchFake,
  skipWithoutPostgres,
  startFakeLlm,
  startPostgres,
  startSearchFake,
  startTestSite,
  type TestSite,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IrisProcess } from "../src/app/process.js";
import { toolsReport } from "../src/app/tools-report.js";
import { loadProfile } from "../src/config/index.js";
import { openProcess, startSession, textOf } from "./process.js";

let site: TestSite;
let brave: SearchFake;
const KEY = "brave-key-from-dotenv-0123456789";
beforeAll(async () => {
  site = await startTestSite();
  brave = await startSearchFake({ api: "brave", corpus: site, apiKey: KEY });
});
afterAll(async () => {
  await brave.close();
  await site.close();
});

const config = () => `web:
  search:
    backend: brave
    base_url: ${brave.baseUrl}
  allow_hosts: ["${new URL(site.baseUrl).host}", "${new URL(brave.baseUrl).host}"]
`;

type Body = { messages: { role: string; content?: unknown }[]; tools?: { function: { name: string } }[] };

describe("web tools in a session", () => {
  it("searches, reads the page found, and gives both to the model as untrusted Markdown", async () => {
    const fake = await startFakeLlm();
    const dir = tempDir("iris-web-e2e");
    writeFileSync(join(dir.path, "config.yaml"), config());
    writeFileSync(join(dir.path, ".env"), `BRAVE_API_KEY=${KEY}\n`);
    // .env wins over the shell.
    const profile = loadProfile({
      env: { IRIS_HOME: dir.path, BRAVE_API_KEY: "shell-key-loses" },
      registerSecret: () => {},
    });
    if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
    const iris = await IrisProcess.open({ profile, platform: "cli", env: {} });
    try {
      const streams = site.url("/docs/streams");
      fake.enqueue(
        { toolCalls: [{ name: "web_search", arguments: { query: "streams backpressure" } }] },
        { toolCalls: [{ name: "web_extract", arguments: { urls: [streams, site.url("/to-internal")] } }] },
        { text: "Streams handle data piece by piece." },
      );
      const session = await startSession(iris, fake, join(dir.path, "work"));
      await session.send("What are Node streams?");
      const bodies = fake.requests.map((r) => r.body as Body);
      expect(bodies[0]?.tools?.map((t) => t.function.name)).toEqual(
        expect.arrayContaining(["web_search", "web_extract"]),
      );
      const searchResult = textOf(bodies[1]?.messages.at(-1));
      expect(searchResult).toContain("untrusted_web_content");
      expect(searchResult).toContain(streams);
      expect(brave.requests.at(-1)?.headers["x-subscription-token"]).toBe(KEY);
      const pageResult = textOf(bodies[2]?.messages.at(-1));
      expect(pageResult).toContain("## Node streams guide");
      expect(pageResult).toContain("| Readable | fs.createReadStream |");
      expect(pageResult).toContain("import { pipeline } from");
      expect(pageResult).not.toContain("ADVERT");
      expect(pageResult).toContain(`refused ${site.internal.baseUrl}/latest/meta-data/`);
      expect(site.internal.hits).toEqual([]);
    } finally {
      await iris.close();
      await fake.close();
      dir.cleanup();
    }
  });

  it.each(["sqlite", "postgres"] as const)(
    "the local backend finds in a later process what an earlier one read (%s)",
    async (engine) => {
      if (engine === "postgres" && skipWithoutPostgres()) return;
      const pg: PostgresServer | undefined = engine === "postgres" ? await startPostgres() : undefined;
      const fake = await startFakeLlm();
      const dir = tempDir("iris-web-local");
      writeFileSync(
        join(dir.path, "config.yaml"),
        `web:\n  search: {backend: local}\n  allow_hosts: ["${new URL(site.baseUrl).host}"]\n` +
          (pg ? "store: {backend: postgres}\n" : ""),
      );
      const env = { IRIS_HOME: dir.path, ...(pg ? { IRIS_DATABASE_URL: pg.url() } : {}) };
      const profile = loadProfile({ env, registerSecret: () => {} });
      if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
      const weather = site.url("/news/seoul-weather");
      try {
        const first = await IrisProcess.open({ profile, platform: "cli", env: {} });
        try {
          fake.enqueue(
            {
              toolCalls: [{ name: "web_extract", arguments: { urls: [weather, site.url("/docs/streams")] } }],
            },
            { text: "read" },
          );
          await (await startSession(first, fake, join(dir.path, "work"))).send("read these");
        } finally {
          await first.close();
        }
        const second = await IrisProcess.open({ profile, platform: "cli", env: {} });
        try {
          fake.enqueue(
            { toolCalls: [{ name: "web_search", arguments: { query: "서울 날씨" } }] },
            { toolCalls: [{ name: "web_search", arguments: { query: "backpressure pipeline" } }] },
            { text: "found" },
          );
          const before = fake.requests.length;
          await (await startSession(second, fake, join(dir.path, "work"))).send(
            "what did I read about the weather?",
          );
          const bodies = fake.requests.slice(before).map((r) => r.body as Body);
          const korean = textOf(bodies[1]?.messages.at(-1));
          expect(korean).toContain("untrusted_web_content");
          expect(korean).toContain(weather);
          expect(korean).not.toContain(site.url("/docs/streams"));
          const english = textOf(bodies[2]?.messages.at(-1));
          expect(english.indexOf(site.url("/docs/streams"))).toBeGreaterThan(-1);
          expect(english).not.toContain(weather);
        } finally {
          await second.close();
        }
        expect(existsSync(join(dir.path, "state.db"))).toBe(engine === "sqlite");
      } finally {
        await fake.close();
        await pg?.close();
        dir.cleanup();
      }
    },
    60_000,
  );

  it("iris tools' report says why web_search is not offered", async () => {
    const p = await openProcess("iris-web-tools", config());
    try {
      const profile = loadProfile({ env: { IRIS_HOME: p.dir.path }, registerSecret: () => {} });
      if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
      const rows = await toolsReport(profile, "cli");
      expect(rows.find((r) => r.name === "web_search")).toEqual({
        name: "web_search",
        toolset: "web",
        offered: false,
        reason: "web.search.backend brave needs a key in BRAVE_API_KEY (.env or the environment)",
      });
      expect(rows.find((r) => r.name === "web_extract")?.offered).toBe(true);
    } finally {
      await p.close();
    }
  });
});
