// The fake signal-cli daemon is as strict as the daemon: JSON-RPC 2.0 errors for a bad request,
// an unknown method and bad params, and events queued while no one listens.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSignal } from "./server.js";

const BOT = "+15550000001";
const MIN = "+821012345678";

describe("FakeSignal", () => {
  let sg: FakeSignal;
  beforeAll(async () => {
    sg = await FakeSignal.start({
      account: BOT,
      users: [{ number: MIN, name: "Min" }],
      groups: { g1: [BOT, MIN] },
    });
  });
  afterAll(() => sg.close());

  const call = async (body: unknown) => {
    const res = await fetch(`${sg.url}/api/v1/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return (await res.json()) as {
      result?: { timestamp?: number };
      error?: { code: number; message: string };
    };
  };
  const rpc = (method: string, params: unknown) => call({ jsonrpc: "2.0", id: 1, method, params });

  it("answers JSON-RPC errors for a bad request, method and params", async () => {
    expect((await call("{not json")).error?.code).toBe(-32700);
    expect((await call({ id: 1, method: "send", params: {} })).error?.code).toBe(-32600);
    expect((await rpc("sendNothing", { account: BOT })).error?.code).toBe(-32601);
    expect((await rpc("send", { recipient: [MIN], message: "x" })).error?.message).toMatch(/account/);
    expect((await rpc("send", { account: BOT, message: "x" })).error?.code).toBe(-32602);
    expect(
      (await rpc("send", { account: BOT, recipient: [MIN], groupId: "g1", message: "x" })).error?.code,
    ).toBe(-32602);
    expect((await rpc("send", { account: BOT, recipient: ["+1999"], message: "x" })).error?.message).toMatch(
      /Unregistered/,
    );
    expect((await rpc("send", { account: BOT, groupId: "nope", message: "x" })).error?.message).toMatch(
      /Group/,
    );
    expect((await rpc("send", { account: BOT, recipient: [MIN], message: "" })).error?.code).toBe(-32602);
    expect(
      (await rpc("send", { account: BOT, recipient: [MIN], attachments: ["/etc/passwd"] })).error?.code,
    ).toBe(-32602);
    expect(sg.sent).toEqual([]);
    const ok = await rpc("send", { account: BOT, groupId: "g1", message: "hi" });
    expect(ok.result?.timestamp).toBeGreaterThan(0);
    expect(sg.sentTo("g1").map((s) => s.message)).toEqual(["hi"]);
  });

  it("keeps events until a listener reads them, as receive events with the envelope", async () => {
    const ts = sg.userSends({
      from: MIN,
      text: "queued",
      attachments: [{ bytes: Buffer.from("abc"), contentType: "text/plain" }],
    });
    const ac = new AbortController();
    const res = await fetch(`${sg.url}/api/v1/events?account=${encodeURIComponent(BOT)}`, {
      signal: ac.signal,
    });
    const reader = res.body?.getReader();
    let text = "";
    while (reader && !text.includes("\n\n", text.indexOf("event:receive"))) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    ac.abort();
    const data = JSON.parse(/data:(.*)/.exec(text)?.[1] ?? "{}");
    expect(data.account).toBe(BOT);
    expect(data.envelope).toMatchObject({
      sourceNumber: MIN,
      timestamp: ts,
      dataMessage: { message: "queued" },
    });
    const id = data.envelope.dataMessage.attachments[0].id;
    const got = (await rpc("getAttachment", { account: BOT, id, recipient: MIN })) as {
      result?: { data?: string };
    };
    expect(Buffer.from(got.result?.data ?? "", "base64").toString()).toBe("abc");
    const bad = await fetch(`${sg.url}/api/v1/events?account=%2B1999`);
    expect(bad.status).toBe(400);
  });
});
