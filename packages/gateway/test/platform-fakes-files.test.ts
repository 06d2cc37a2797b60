// The fakes' file rules, driven by the platforms' official clients as the adapters use them: a
// fake that let a wrong upload through would let an adapter's bug through. Telegram: a photo
// must be a picture; Discord: each files[n] part must be named in the payload's attachments;
// Slack: files.upload is retired, an upload must have the announced length and be complete
// before it is shared, and a user's file answers only with the bot token.
import { FakeDiscord, FakeSlack, FakeTelegram, solidPng } from "@iris/testkit";
import { webApi } from "@slack/bolt";
import { REST, Routes } from "discord.js";
import { Api, GrammyError, InputFile } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PNG = solidPng(2, 2);

describe("fake Telegram: uploads", () => {
  let tg: FakeTelegram;
  let api: Api;
  beforeAll(async () => {
    tg = await FakeTelegram.start({ token: "1:files" });
    api = new Api("1:files", { apiRoot: tg.apiRoot });
    tg.send({ chat: { id: 5, type: "private" }, from: { id: 5, first_name: "U" }, text: "hi" });
  });
  afterAll(() => tg.close());

  it("takes a picture as a photo and anything as a document; a photo that is no picture is refused", async () => {
    await api.sendPhoto(5, new InputFile(PNG, "a.png"), { caption: "pic" });
    await api.sendDocument(5, new InputFile(Buffer.from("x,y"), "a.csv"));
    const err = await api.sendPhoto(5, new InputFile(Buffer.from("not a picture"), "b.png")).catch((e) => e);
    expect(err).toBeInstanceOf(GrammyError);
    expect((err as GrammyError).description).toBe("Bad Request: IMAGE_PROCESS_FAILED");
    expect(tg.messages(5).map((m) => [m.file?.kind, m.file?.name, m.texts[0]])).toEqual([
      ["photo", "a.png", "pic"],
      ["document", "a.csv", ""],
    ]);
  });
});

describe("fake Discord: uploads", () => {
  let dc: FakeDiscord;
  let rest: REST;
  let channel = "";
  beforeAll(async () => {
    dc = await FakeDiscord.start({ token: "T.files" });
    channel = dc.addGuild("g", ["general"]).channelIds[0] as string;
    // Node's fetch, as the adapter sends (discord-beside-slack.e2e.test.ts says why).
    rest = new REST({ api: dc.apiBase, retries: 0, makeRequest: fetch as never }).setToken("T.files");
  });
  afterAll(() => dc.close());

  it("wants each files[n] part named by id in attachments; over 10 MiB is a 413", async () => {
    const post = (body: object, data: Buffer) =>
      rest.post(Routes.channelMessages(channel), { body, files: [{ name: "a.png", data }] });
    await post({ content: "", attachments: [{ id: 0, filename: "a.png" }] }, PNG);
    await expect(post({ content: "no metadata" }, PNG)).rejects.toThrow(/Invalid Form Body/);
    await expect(post({ content: "", attachments: [{ id: 1, filename: "a.png" }] }, PNG)).rejects.toThrow(
      /Invalid Form Body/,
    );
    await expect(
      post(
        { content: "", attachments: [{ id: 0, filename: "big.bin" }] },
        Buffer.alloc(10 * 1024 * 1024 + 1),
      ),
    ).rejects.toThrow(/Request entity too large/);
    const sent = dc.messages(channel);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.files?.[0]).toMatchObject({ name: "a.png", contentType: "image/png" });
  });
});

describe("fake Slack: uploads and users' files", () => {
  let sl: FakeSlack;
  let client: webApi.WebClient;
  let channel = "";
  beforeAll(async () => {
    sl = await FakeSlack.start({ botToken: "xoxb-files", appToken: "xapp-files" });
    channel = sl.addChannel("general");
    client = new webApi.WebClient("xoxb-files", {
      slackApiUrl: sl.apiUrl,
      retryConfig: { retries: 0 },
    });
  });
  afterAll(() => sl.close());

  it("refuses files.upload, shares an upload only once its bytes are there, in full", async () => {
    await expect(client.apiCall("files.upload", { channels: channel, content: "x" })).rejects.toThrow(
      /method_deprecated/,
    );
    const early = (await client.files.getUploadURLExternal({ filename: "a.txt", length: 3 })) as {
      file_id: string;
    };
    await expect(client.files.completeUploadExternal({ files: [{ id: early.file_id }] })).rejects.toThrow(
      /file_not_found/,
    );
    const short = (await client.files.getUploadURLExternal({ filename: "b.txt", length: 9 })) as {
      upload_url: string;
    };
    const res = await fetch(short.upload_url, { method: "POST", body: "abc" });
    expect(res.status).toBe(400);
    await client.files.uploadV2({
      channel_id: channel,
      file: PNG,
      filename: "c.png",
      initial_comment: "here",
    });
    const shared = sl.botMessages(channel);
    expect(shared.map((m) => [m.texts[0], m.files?.[0]?.name, m.files?.[0]?.bytes.equals(PNG)])).toEqual([
      ["here", "c.png", true],
    ]);
  });

  it("serves a user's file only with the bot token; without it, Slack's sign-in page", async () => {
    const user = sl.addUser("u");
    sl.send({
      channel,
      user,
      text: "file",
      files: [{ name: "n.txt", mimetype: "text/plain", bytes: Buffer.from("hey") }],
    });
    const m = sl.messages(channel).findLast((x) => x.user === user);
    const id = m?.files?.[0]?.id ?? "";
    const url = `http://127.0.0.1:${sl.port}/files-pri/T0FAKE0001-${id}/download/n.txt`;
    const anonymous = await fetch(url);
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("content-type")).toMatch(/^text\/html/);
    const authed = await fetch(url, { headers: { Authorization: "Bearer xoxb-files" } });
    expect(await authed.text()).toBe("hey");
  });
});
