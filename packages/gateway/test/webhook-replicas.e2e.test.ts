// Webhooks on many processes: two `iris gateway run` processes (the built bin, two
// homes) on one Postgres profile each serve the webhook routes — no connection lock for a
// platform whose events come as HTTP requests. A delivery sent to both at once (a sender's retry
// landing on another replica) runs once: one replica answers it, the other says "duplicate".
// Deliveries spread over both are each answered once, by whichever replica took them in.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  type PostgresServer,
  skipWithoutPostgres,
  startFakeLlm,
  startPostgres,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastMessage, writeGatewayProfile } from "./profile.js";
import { type SpawnedGateway, spawnGateway, stopGateways } from "./spawned-gateway.js";

const TOKEN = "replica-token-31bf";

describe.skipIf(skipWithoutPostgres())("webhooks served by two gateway processes on one Postgres", () => {
  let fake: FakeLlm;
  let pg: PostgresServer;
  let homes: TempDir[] = [];
  const procs: SpawnedGateway[] = [];
  const bases: string[] = [];

  /** Starts a replica; resolves with its routes' base URL once it runs. */
  const start = async (home: string): Promise<string> => {
    const g = spawnGateway(home, pg.url());
    procs.push(g);
    return (await g.said(/webhooks at (\S+)<route>/))[1] ?? "";
  };
  const post = (base: string, delivery: string, build: number) =>
    fetch(`${base}ci`, {
      method: "POST",
      body: JSON.stringify({ build: { id: build } }),
      headers: { "content-type": "application/json", "x-webhook-token": TOKEN, "x-delivery-id": delivery },
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  beforeAll(async () => {
    pg = await startPostgres();
    fake = await startFakeLlm();
    fake.setHandler((req) => ({ text: `ran: ${lastMessage(req).said}` }));
    homes = [tempDir("iris-gw-hooks-a"), tempDir("iris-gw-hooks-b")];
    for (const h of homes) {
      writeFileSync(join(h.path, ".env"), `CI_TOKEN=${TOKEN}\n`);
      writeGatewayProfile(h.path, fake, [
        "store: {backend: postgres, schema: hooks}",
        "gateway:",
        "  platforms:",
        "    webhooks:",
        "      port: 0",
        "      routes:",
        "        ci:",
        "          secret_env: CI_TOKEN",
        "          auth: token",
        "          delivery_header: X-Delivery-Id",
        '          prompt: "Build {{build.id}} failed"',
      ]);
    }
    // Both run at once: neither waits for the other.
    bases.push(...(await Promise.all(homes.map((h) => start(h.path)))));
  }, 120_000);

  afterAll(async () => {
    await stopGateways(procs);
    await fake?.close();
    await pg?.close();
    for (const h of homes) h.cleanup();
  }, 60_000);

  it("runs a delivery sent to both replicas once, and each of many deliveries once", async () => {
    const [a, b] = bases as [string, string];
    expect(a).not.toBe(b);
    const both = await Promise.all([post(a, "d-1", 1), post(b, "d-1", 1)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const answered = both.filter((r) => r.body.reply !== undefined);
    expect(answered).toHaveLength(1);
    expect(answered[0]?.body.reply).toBe("ran: Build 1 failed");
    expect(both.filter((r) => r.body.status === "duplicate")).toHaveLength(1);

    const many = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post(i % 2 ? a : b, `m-${i}`, 100 + i)),
    );
    expect(many.map((r) => r.body.reply)).toEqual(
      Array.from({ length: 8 }, (_, i) => `ran: Build ${100 + i} failed`),
    );
    // A retry of one of them to the other replica runs nothing.
    expect((await post(a, "m-0", 100)).body).toEqual({ delivery: "m-0", status: "duplicate" });
    for (const id of [1, ...Array.from({ length: 8 }, (_, i) => 100 + i)])
      expect(fake.requests.filter((r) => lastMessage(r).said.includes(`Build ${id} failed`))).toHaveLength(1);
  }, 120_000);
});
