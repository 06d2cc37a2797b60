// The fake Mattermost is as strict as the server where the bot depends on it: the token on every
// call and on the socket, model.AppError bodies, a post's root and size, one's own posts only,
// pending_post_id dedupe, file uploads and the posts that attach them, and a socket's seq
// numbers, resume and hello.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { FakeMattermost } from "./server.js";

const TOKEN = "mm-fake-token";

describe("FakeMattermost", () => {
  let mm: FakeMattermost;
  let min = "";
  let dm = "";
  let town = "";
  beforeAll(async () => {
    mm = await FakeMattermost.start({ token: TOKEN });
    min = mm.addUser("min");
    dm = mm.dm(min);
    town = mm.addChannel("town-square", [min]);
  });
  afterAll(() => mm.close());

  const api = async (method: string, path: string, body?: unknown, token = TOKEN) => {
    const res = await fetch(`${mm.url}/api/v4${path}`, {
      method,
      headers: { authorization: `BEARER ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    expect(res.headers.get("content-type")).toBe("application/json");
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  it("refuses a wrong token with 401 and an AppError body", async () => {
    const r = await api("GET", "/users/me", undefined, "nope");
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ id: "api.context.session_expired.app_error", status_code: 401 });
    expect((await api("GET", "/users/me")).json).toMatchObject({ id: mm.bot.id, username: "iris" });
  });

  it("checks a post's channel, size and root; edits only the bot's own posts", async () => {
    const other = mm.addChannel("elsewhere", [min]);
    expect((await api("POST", "/posts", { channel_id: "x".repeat(26), message: "hi" })).status).toBe(403);
    expect((await api("POST", "/posts", { channel_id: other, message: "a".repeat(16384) })).status).toBe(400);
    const root = mm.userPosts({ channel: town, user: min, message: "root" });
    const reply = mm.userPosts({ channel: town, user: min, message: "in thread", rootId: root });
    expect((await api("POST", "/posts", { channel_id: town, message: "x", root_id: reply })).json.id).toBe(
      "api.post.create_post.root_id.app_error",
    );
    expect((await api("POST", "/posts", { channel_id: other, message: "x", root_id: root })).status).toBe(
      400,
    );
    const ok = await api("POST", "/posts", { channel_id: town, message: "answer", root_id: root });
    expect(ok.status).toBe(201);
    expect((await api("PUT", `/posts/${root}/patch`, { message: "hijack" })).status).toBe(403);
    expect((await api("PUT", `/posts/${ok.json.id}/patch`, { message: "edited" })).json.message).toBe(
      "edited",
    );
  });

  it("takes a multipart upload into a channel of the bot's, and attaches a file to one post only", async () => {
    const upload = async (channel: string, files: { name: string; bytes: Buffer }[]) => {
      const form = new FormData();
      form.append("channel_id", channel);
      for (const f of files) form.append("files", new Blob([new Uint8Array(f.bytes)]), f.name);
      const res = await fetch(`${mm.url}/api/v4/files`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}` },
        body: form,
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    expect((await upload("x".repeat(26), [{ name: "a.txt", bytes: Buffer.from("a") }])).status).toBe(403);
    expect((await upload(town, [])).json.id).toBe("api.file.upload_file.incorrect_number_of_files.app_error");
    const filesFirst = new FormData();
    filesFirst.append("files", new Blob(["x"]), "x.txt");
    filesFirst.append("channel_id", town);
    const refused = await fetch(`${mm.url}/api/v4/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
      body: filesFirst,
    });
    expect(refused.status).toBe(400);
    const up = await upload(town, [{ name: "chart.png", bytes: Buffer.from("png bytes") }]);
    expect(up.status).toBe(201);
    const info = (
      up.json.file_infos as { id: string; mime_type: string; size: number; post_id: string }[]
    )[0];
    expect(info).toMatchObject({ mime_type: "image/png", size: 9, post_id: "" });
    const id = info?.id ?? "";
    // Another channel's post does not take it; a post with no text but the file does, once.
    const elsewhere = mm.addChannel("files-elsewhere", [min]);
    const wrong = await api("POST", "/posts", { channel_id: elsewhere, message: "x", file_ids: [id] });
    expect(wrong.json.file_ids).toBeUndefined();
    const posted = await api("POST", "/posts", { channel_id: town, message: "", file_ids: [id] });
    expect(posted.status).toBe(201);
    expect(posted.json.file_ids).toEqual([id]);
    expect(
      mm
        .botPosts(town)
        .find((p) => p.id === posted.json.id)
        ?.files[0]?.bytes.toString(),
    ).toBe("png bytes");
    const again = await api("POST", "/posts", { channel_id: town, message: "again", file_ids: [id] });
    expect(again.json.file_ids).toBeUndefined();
    expect((await api("POST", "/posts", { channel_id: town, message: "" })).status).toBe(400);
    const tooMany = Array.from({ length: 11 }, () => id);
    expect((await api("POST", "/posts", { channel_id: town, message: "x", file_ids: tooMany })).status).toBe(
      400,
    );
  });

  it("answers a repeated pending_post_id with the first post", async () => {
    const body = { channel_id: dm, message: "once", pending_post_id: `${mm.bot.id}:123` };
    const a = await api("POST", "/posts", body);
    const b = await api("POST", "/posts", body);
    expect(b.json.id).toBe(a.json.id);
    expect(mm.botPosts(dm).filter((p) => p.message === "once")).toHaveLength(1);
  });

  it("gives posts since a time, newest first", async () => {
    const t = Date.now();
    const id = mm.userPosts({ channel: dm, user: min, message: "later" });
    const r = await api("GET", `/channels/${dm}/posts?since=${t - 1}`);
    expect(r.json.order).toContain(id);
    expect((r.json.posts as Record<string, { message: string }>)[id]?.message).toBe("later");
  });

  it("numbers events from 0, resumes a connection id with what was missed, then says hello", async () => {
    const events: { event: string; seq: number; data: Record<string, unknown> }[] = [];
    const open = (query: string, token = TOKEN) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`${mm.url.replace("http", "ws")}/api/v4/websocket?${query}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        ws.on("message", (d) => events.push(JSON.parse(String(d))));
        ws.on("open", () => resolve(ws));
        ws.on("error", reject);
      });
    await expect(open("connection_id=&sequence_number=0", "bad")).rejects.toThrow(/401/);
    const until = async (n: number) => {
      while (events.length < n) await new Promise((r) => setTimeout(r, 10));
    };
    const ws = await open("connection_id=&sequence_number=0");
    await until(1);
    const hello = events[0];
    expect(hello).toMatchObject({ event: "hello", seq: 0 });
    mm.userPosts({ channel: dm, user: min, message: "one" });
    await until(2);
    expect(events[1]).toMatchObject({ event: "posted", seq: 1, data: { channel_type: "D" } });
    expect(JSON.parse(String(events[1]?.data.post)).message).toBe("one");
    expect(JSON.parse(String(events[1]?.data.mentions))).toEqual([mm.bot.id]);
    // Whether or not the server saw the close yet, the event is kept for the resume.
    ws.terminate();
    mm.userPosts({ channel: dm, user: min, message: "while away" });
    const id = String(hello?.data.connection_id);
    const again = await open(`connection_id=${id}&sequence_number=2`);
    await until(4);
    expect(events.slice(2).map((e) => [e.event, e.seq])).toEqual([
      ["posted", 2],
      ["hello", 3],
    ]);
    expect(events[3]?.data.connection_id).toBe(id);
    again.terminate();
    mm.forgetConnections();
    await open(`connection_id=${id}&sequence_number=4`);
    await until(5);
    expect(events[4]).toMatchObject({ event: "hello", seq: 0 });
    expect(events[4]?.data.connection_id).not.toBe(id);
  });
});
