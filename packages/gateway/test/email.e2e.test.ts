import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Dovecot,
  type FakeLlm,
  type RecordedRequest,
  type SmtpSink,
  type Step,
  skipWithoutDovecot,
  solidPng,
  startDovecot,
  startFakeLlm,
  startSmtpSink,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2eGateway, until } from "./e2e-gateway.js";
import { MailDrop, rawMail } from "./mail-peer.js";
import { type ChatMessage, lastMessage, textOf } from "./profile.js";

const BOT = "iris@example.test";
const MIN = "min@example.test";
const IMAP_PW = "imap-pw-7f3a";
const SMTP_PW = "smtp-pw-91c2";

/** The newest user text of a request (the text part where it has images too). */
function saidText(req: RecordedRequest): string {
  const { last, said } = lastMessage(req);
  if (!Array.isArray(last?.content)) return said;
  return (last.content as { type: string; text?: string }[]).find((p) => p.type === "text")?.text ?? "";
}

/** The user messages of the newest request to the model. */
function userTexts(fake: FakeLlm): string {
  const body = fake.requests.at(-1)?.body as { messages?: ChatMessage[] } | undefined;
  return (body?.messages ?? [])
    .filter((m) => m.role === "user")
    .map(textOf)
    .join("\n");
}

describe.skipIf(skipWithoutDovecot())("gateway over e-mail (dovecot + SMTP sink)", () => {
  let dovecot: Dovecot;
  let sink: SmtpSink;
  let fake: FakeLlm;
  let drop: MailDrop;
  let gw: E2eGateway;
  const repliesTo = (addr: string) => sink.mails.filter((m) => m.to.includes(addr));
  const replyWith = (addr: string, text: string) =>
    until(
      () => repliesTo(addr).filter((m) => (m.parsed.text ?? "").includes(text)),
      (r) => r.length > 0,
      `a reply to ${addr} with ${text}`,
    );

  beforeAll(async () => {
    [dovecot, sink, fake] = await Promise.all([
      startDovecot({ [BOT]: IMAP_PW }),
      startSmtpSink({ user: BOT, password: SMTP_PW }),
      startFakeLlm(),
    ]);
    fake.setHandler((req: RecordedRequest): Step => {
      const { last } = lastMessage(req);
      if (last?.role === "tool") return { text: "the report is attached" };
      if (saidText(req).includes("send the report"))
        return {
          toolCalls: [{ name: "send_file", arguments: { path: "report.csv", caption: "Your report." } }],
        };
      return { text: `echo: ${saidText(req).split("\n")[0]}` };
    });
    drop = await MailDrop.open(dovecot.host, dovecot.port, BOT, IMAP_PW);
    gw = await E2eGateway.start(
      "iris-gw-email",
      fake,
      `EMAIL_PASSWORD=${IMAP_PW}\nSMTP_PASSWORD=${SMTP_PW}\n`,
      [
        "gateway:",
        "  platforms:",
        "    email:",
        `      address: ${BOT}`,
        `      imap: {host: 127.0.0.1, port: ${dovecot.port}, secure: false}`,
        `      smtp: {host: 127.0.0.1, port: ${sink.port}, secure: false, password_env: SMTP_PASSWORD}`,
        `      allowed_senders: [${MIN}]`,
      ],
    );
  }, 60_000);

  afterAll(async () => {
    const code = await gw?.close();
    await drop?.close();
    await Promise.all([dovecot?.close(), sink?.close(), fake?.close()]);
    expect(code, gw?.err).toBe(0);
    expect(gw?.err).not.toContain(IMAP_PW);
    expect(gw?.err).not.toContain(SMTP_PW);
  }, 60_000);

  it("a thread of three replies is one session; each reply keeps In-Reply-To, References and the subject", async () => {
    const first = await drop.deliver({
      from: `Min <${MIN}>`,
      to: [BOT],
      subject: "plan",
      text: "first question",
    });
    const [r1] = await replyWith(MIN, "echo: plan");
    expect(r1?.parsed.subject).toBe("Re: plan");
    expect(r1?.parsed.inReplyTo).toBe(first);
    expect(r1?.from).toBe(BOT);
    let parent = r1?.parsed.messageId ?? "";
    let refs = [first, parent];
    for (const n of ["second", "third"]) {
      const id = await drop.deliver({
        from: MIN,
        to: [BOT],
        subject: "Re: plan",
        text: `${n} question\n\nOn Wed, Iris <${BOT}> wrote:\n> echo: earlier`,
        inReplyTo: parent,
        references: refs,
      });
      const [r] = await replyWith(MIN, `echo: ${n} question`);
      expect(r?.parsed.subject).toBe("Re: plan");
      expect(r?.parsed.inReplyTo).toBe(id);
      expect(r?.parsed.references).toEqual(expect.arrayContaining([first, id]));
      parent = r?.parsed.messageId ?? "";
      refs = [...refs, id, parent];
    }
    // The third request carries the whole thread, and no quoted line twice.
    const users = userTexts(fake);
    expect(users).toContain("first question");
    expect(users).toContain("second question");
    expect(users).not.toContain("> echo");
    const system = (fake.requests.at(-1)?.body as { messages?: ChatMessage[] } | undefined)?.messages?.[0];
    expect(textOf(system)).toContain("This chat is e-mail");
  }, 90_000);

  it("sends a file the model asks for as an attachment of a reply in the thread", async () => {
    const csv = Buffer.from("month,total\nnov,42\n");
    writeFileSync(join(gw.home, "work", "report.csv"), csv);
    await drop.deliver({ from: MIN, to: [BOT], subject: "numbers", text: "send the report please" });
    const [mail] = await until(
      () => repliesTo(MIN).filter((m) => m.parsed.attachments.length > 0),
      (r) => r.length > 0,
      "a reply with the attachment",
    );
    expect(mail?.parsed.subject).toBe("Re: numbers");
    expect(mail?.parsed.inReplyTo).toBeTruthy();
    expect(mail?.parsed.text?.trim()).toBe("Your report.");
    expect(mail?.parsed.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([
      ["report.csv", csv.toString()],
    ]);
    await replyWith(MIN, "the report is attached");
  }, 60_000);

  it("a new thread from the same sender is a new session", async () => {
    await drop.deliver({ from: MIN, to: [BOT], subject: "other topic", text: "unrelated" });
    await replyWith(MIN, "echo: other topic");
    expect(userTexts(fake)).not.toContain("first question");
  }, 60_000);

  it("gives a stranger a pairing code by mail and never reaches the model", async () => {
    const before = fake.requests.length;
    await drop.deliver({ from: "stranger@example.test", to: [BOT], text: "let me in" });
    const [r] = await replyWith("stranger@example.test", "pairing code");
    expect(r?.parsed.text).toMatch(/pairing code is [A-Z0-9]{8}/);
    expect(fake.requests.length).toBe(before);
  }, 60_000);

  it("hands an attached image to the model and reads an HTML mail without its quote", async () => {
    const png = solidPng(4, 4);
    await drop.deliver({
      from: MIN,
      to: [BOT],
      html: "<p>what is <b>this</b>?</p><blockquote>old quoted text</blockquote>",
      attachments: [{ name: "dot.png", type: "image/png", content: png }],
    });
    await replyWith(MIN, "echo: what is this?");
    const req = fake.requests.at(-1);
    expect(req?.rawBody.toString()).toContain("data:image/png;base64,");
    expect(saidText(req as RecordedRequest)).toContain("[image attached: dot.png");
    expect(req?.rawBody.toString()).not.toContain("old quoted text");
  }, 60_000);

  it("the server going away loses nothing; stale copies of one mail are answered once", async () => {
    await dovecot.stop();
    await dovecot.start();
    const { raw, messageId } = rawMail({ from: MIN, to: [BOT], text: "after the outage" });
    const d = await MailDrop.open(dovecot.host, dovecot.port, BOT, IMAP_PW);
    await d.deliver(raw);
    await d.deliver(raw);
    await replyWith(MIN, "echo: after the outage");
    // One more mail after it is answered: both copies of the first were seen by then.
    await d.deliver({ from: MIN, to: [BOT], text: "and after that" });
    await replyWith(MIN, "echo: and after that");
    await d.close();
    drop = await MailDrop.open(dovecot.host, dovecot.port, BOT, IMAP_PW);
    expect(repliesTo(MIN).filter((m) => m.parsed.inReplyTo === messageId)).toHaveLength(1);
  }, 90_000);

  it("a restart of the gateway mid-conversation: mail that came meanwhile is answered once, nothing twice", async () => {
    expect(await gw.stop()).toBe(0);
    await drop.deliver({ from: MIN, to: [BOT], text: "while you were away" });
    const before = repliesTo(MIN).length;
    await gw.start();
    await replyWith(MIN, "echo: while you were away");
    // Nothing answered before the restart is answered again.
    await drop.deliver({ from: MIN, to: [BOT], text: "last one" });
    await replyWith(MIN, "echo: last one");
    expect(repliesTo(MIN).length).toBe(before + 2);
  }, 90_000);
});
