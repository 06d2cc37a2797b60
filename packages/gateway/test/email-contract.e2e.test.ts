// The adapter contract for e-mail: imapflow inside the adapter against a real Dovecot (reached
// through a DropProxy, which drops the IMAP connection for the reconnect test) and nodemailer
// against the SMTP sink in testkit. The peer delivers mail into the bot's mailbox; a group is a
// mail with another person on To and the bot on Cc.
import { getLogger } from "@iris/llm";
import {
  type Dovecot,
  type SmtpSink,
  skipWithoutDovecot,
  startDovecot,
  startSmtpSink,
  tempDir,
} from "@iris/testkit";
import { afterAll, describe } from "vitest";
import { EmailAdapter } from "../src/platforms/email/adapter.js";
import { adapterContract } from "./contract.js";
import { DropProxy } from "./drop-proxy.js";
import { MailDrop, rawMail } from "./mail-peer.js";

const BOT = "iris@example.test";
const PEER = "min@example.test";
const OTHER = "jo@example.test";

describe.skipIf(skipWithoutDovecot())("email adapter contract (dovecot + SMTP sink)", () => {
  let dovecot: Dovecot | undefined;
  let sink: SmtpSink | undefined;
  let proxy: DropProxy | undefined;
  let drop: MailDrop | undefined;
  let last: Buffer | undefined;
  const files = tempDir("iris-email-contract");
  afterAll(async () => {
    await drop?.close();
    await proxy?.close();
    await sink?.close();
    await dovecot?.close();
    files.cleanup();
  });

  adapterContract(async () => {
    dovecot = await startDovecot({ [BOT]: "imap-secret" });
    sink = await startSmtpSink({ user: BOT, password: "smtp-secret" });
    proxy = await DropProxy.start(dovecot.port);
    const d = await MailDrop.open(dovecot.host, dovecot.port, BOT, "imap-secret");
    drop = d;
    const mails = sink.mails;
    const server = (port: number, password: string) => ({
      host: "127.0.0.1",
      port,
      secure: false,
      user: BOT,
      password,
      passwordEnv: "EMAIL_PASSWORD",
    });
    const adapter = new EmailAdapter({
      address: BOT,
      name: "Iris",
      imap: server(proxy.port, "imap-secret"),
      smtp: server(sink.port, "smtp-secret"),
      mailbox: "INBOX",
      maxAttachmentBytes: 1024 * 1024,
      filesDir: files.path,
      logger: getLogger({ component: "test" }),
      reconnectMs: 200,
    });
    const send = async (m: Parameters<MailDrop["deliver"]>[0]) => {
      const { raw } = Buffer.isBuffer(m) ? { raw: m } : rawMail(m);
      last = raw;
      await d.deliver(raw);
    };
    return {
      adapter,
      proxy: () => proxy as DropProxy,
      peerId: PEER,
      group: [OTHER, PEER].sort().join(","),
      peerSendsDm: (text) => send({ from: `Min <${PEER}>`, to: [BOT], text }),
      peerSendsGroup: (text) => send({ from: `Min <${PEER}>`, to: [OTHER], cc: [BOT], text }),
      // A stale copy of the same mail (same Message-ID) lands in the mailbox again.
      peerRedeliversDm: async () => {
        if (last) await d.deliver(last);
      },
      peerReceived: async () =>
        mails
          .filter((m) => m.to.length === 1 && m.to[0] === PEER)
          .flatMap((m) => (m.parsed.text ?? "").split("\n").filter((l) => l !== "")),
      peerReconnected: async () => {},
    };
  });
});
