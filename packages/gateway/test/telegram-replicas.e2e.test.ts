// One chat across two gateway processes: Telegram in webhook mode, two `iris gateway
// run` processes (the built bin, two homes) on one Postgres profile behind a round-robin proxy,
// as a load balancer would put them. A DM's first message runs in one process; the next, taken in
// by the other while that turn still runs, waits for it (one turn at a time per session across
// processes) and then runs in the same session, seeing the first answer; nobody is told "busy".

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  type FakeLlm,
  FakeTelegram,
  type PostgresServer,
  type RecordedRequest,
  skipWithoutPostgres,
  startFakeLlm,
  startPostgres,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "./e2e-gateway.js";
import { lastMessage, writeGatewayProfile } from "./profile.js";
import { type SpawnedGateway, spawnGateway, stopGateways } from "./spawned-gateway.js";

const TOKEN = "5151:replica-secret-part";
const MIN = { id: 701, first_name: "Min", username: "min" };
const dm = { id: MIN.id, type: "private" as const };

/** Forwards each POST to the next of `targets` in turn (a round-robin load balancer). */
async function roundRobin(targets: () => number[]): Promise<{ server: Server; port: number }> {
  let next = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const ports = targets();
      const port = ports[next++ % ports.length];
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([k, v]) => typeof v === "string" && k !== "host" && k !== "content-length",
        ),
      ) as Record<string, string>;
      fetch(`http://127.0.0.1:${port}${req.url ?? "/"}`, {
        method: req.method ?? "POST",
        headers,
        body: Buffer.concat(chunks),
      })
        .then(async (r) =>
          res.writeHead(r.status, { "content-type": "application/json" }).end(await r.text()),
        )
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, port: (server.address() as AddressInfo).port };
}

/** The process's log (info lines included): where a waiting turn says so. */
const logOf = (home: string) => {
  const file = join(home, "logs", "iris.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
};

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe.skipIf(skipWithoutPostgres())(
  "one Telegram chat across two gateway processes (webhook mode)",
  () => {
    let tg: FakeTelegram;
    let fake: FakeLlm;
    let pg: PostgresServer;
    let proxy: Server | undefined;
    let homes: TempDir[] = [];
    const procs: SpawnedGateway[] = [];
    let release: () => void = () => {};
    const slow = new Promise<void>((r) => {
      release = r;
    });

    beforeAll(async () => {
      [tg, fake, pg] = await Promise.all([
        FakeTelegram.start({ token: TOKEN }),
        startFakeLlm(),
        startPostgres(),
      ]);
      fake.setHandler(async (req: RecordedRequest) => {
        const { said } = lastMessage(req);
        if (said.includes("slow")) await slow;
        return { text: said.includes("slow") ? "the slow answer" : `echo: ${said}` };
      });
      const ports = [await freePort(), await freePort()];
      const lb = await roundRobin(() => ports);
      proxy = lb.server;
      homes = [tempDir("iris-gw-tg-a"), tempDir("iris-gw-tg-b")];
      for (const [i, h] of homes.entries()) {
        writeFileSync(join(h.path, ".env"), `TELEGRAM_BOT_TOKEN=${TOKEN}\n`);
        writeGatewayProfile(h.path, fake, [
          "store: {backend: postgres, schema: tg}",
          "logging: {level: info}",
          "gateway:",
          "  platforms:",
          `    telegram: {api_root: "${tg.apiRoot}", allowed_users: ["@min"], webhook: {url: "http://127.0.0.1:${lb.port}/tg", listen_port: ${ports[i]}}}`,
        ]);
      }
      for (const h of homes) procs.push(spawnGateway(h.path, pg.url()));
      await Promise.all(procs.map((p) => p.said("iris gateway: running")));
    }, 120_000);

    afterAll(async () => {
      release();
      await stopGateways(procs);
      proxy?.close();
      await Promise.all([tg?.close(), fake?.close()]);
      await pg?.close();
      for (const h of homes) h.cleanup();
      for (const p of procs) expect(p.stderr()).not.toContain("replica-secret-part");
    }, 60_000);

    it("runs a chat's next message after the turn another process is running, in the same session", async () => {
      const texts = () =>
        tg
          .messages(MIN.id)
          .filter((m) => !m.deleted)
          .map((m) => m.texts.at(-1) ?? "");
      tg.send({ chat: dm, from: MIN, text: "a slow question" });
      await until(
        () => fake.requests.filter((r) => lastMessage(r).said.includes("slow")).length,
        (n) => n === 1,
        "the slow turn to start",
      );
      tg.send({ chat: dm, from: MIN, text: "a quick one" });
      // The second message reached the other process (round robin), whose turn waits for the first.
      await until(
        () => homes.map((h) => logOf(h.path)).join("\n"),
        (log) => log.includes("waiting for the turn another gateway process runs in the session"),
        "the second process to wait for the first one's turn",
      );
      release();
      await until(texts, (t) => t.includes("echo: a quick one"), "both answers");
      expect(texts().filter((t) => t === "the slow answer")).toHaveLength(1);
      expect(texts().filter((t) => t === "echo: a quick one")).toHaveLength(1);
      expect(texts().join("\n")).not.toMatch(/busy|^!/m);
      // The quick one ran after the slow turn ended, in its session: its call saw the slow answer.
      const quick = fake.requests.filter((r) => lastMessage(r).said.includes("a quick one"));
      expect(quick).toHaveLength(1);
      expect(JSON.stringify(quick[0]?.body)).toContain("the slow answer");
    }, 120_000);
  },
);
