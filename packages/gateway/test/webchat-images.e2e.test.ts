// Web chat attachments reach the model (SPEC G1, H4): `iris gateway run` with the web chat, a
// logged-in POST /send carrying a PNG, and the fake LLM server finds it in the upstream request;
// a file that is not an image becomes a note, not a failed turn.
import { type FakeLlm, solidPng, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addWebchatUser, runGateway, writeGatewayProfile } from "./profile.js";

let fake: FakeLlm;
let dir: TempDir;
let stop: () => void;
let running: Promise<number>;
let err = "";
let url = "";
let cookie = "";

beforeAll(async () => {
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: "I see it." }));
  dir = tempDir("iris-gw-images");
  writeGatewayProfile(dir.path, fake, ["gateway:", "  platforms:", "    webchat: {port: 0, bot_name: iris}"]);
  const token = addWebchatUser(dir.path, "minji");
  ({ stop, running } = runGateway(dir.path, (s) => {
    err += s;
  }));
  for (let i = 0; i < 6000 && !/web chat at /.test(err); i++) await new Promise((r) => setTimeout(r, 10));
  const m = /web chat at (http:\/\/\S+) /.exec(err);
  expect(m, err).not.toBeNull();
  const [, base = ""] = m ?? [];
  url = base;
  const login = await fetch(new URL("/login", url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });
  expect(login.status).toBe(204);
  cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
}, 120_000);

afterAll(async () => {
  stop?.();
  await running;
  await fake?.close();
  dir?.cleanup();
});

const send = (body: object) =>
  fetch(new URL("/send", url), {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 2400 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
};

describe("web chat attachments", () => {
  it("an attached PNG is in the upstream request", async () => {
    const png = solidPng(7, 7).toString("base64");
    const before = fake.requests.length;
    const r = await send({
      chat: "",
      id: "msg-image-0001",
      text: "what is this?",
      images: [{ name: "a.png", data: png }],
    });
    expect(r.status).toBe(202);
    await until(() => fake.requests.length > before);
    const sent = fake.requests.at(-1);
    expect(sent?.rejected).toBeUndefined();
    expect(sent?.rawBody.toString()).toContain(`data:image/png;base64,${png}`);
  });

  it("a file that is not an image is left out with a note", async () => {
    const before = fake.requests.length;
    const data = Buffer.from("not a picture").toString("base64");
    const r = await send({
      chat: "",
      id: "msg-image-0002",
      text: "and this?",
      images: [{ name: "b.png", data }],
    });
    expect(r.status).toBe(202);
    await until(() => fake.requests.length > before);
    expect(fake.requests.at(-1)?.rawBody.toString()).toContain(
      "[attachment b.png left out: b.png is not a PNG, JPEG, GIF or WebP image]",
    );
  });
});
