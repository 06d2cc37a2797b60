// An SMTP submission server that keeps what it is sent (smtp-server, in process, port 0), as
// strict as a real submission service: AUTH is required and checked, the envelope sender must be
// the authenticated user's own address, every recipient must be a mailbox, and a message over
// the size limit is refused. Each accepted message is parsed (mailparser) for the tests.
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface SunkMail {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
}

export interface SmtpSinkOptions {
  user: string;
  password: string;
  /** The address the user may send from (default: the user name). */
  address?: string;
  maxBytes?: number;
}

export interface SmtpSink {
  host: string;
  port: number;
  mails: SunkMail[];
  /** Failed logins so far. */
  authFailures: number;
  close(): Promise<void>;
}

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

export async function startSmtpSink(opts: SmtpSinkOptions): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  const own = (opts.address ?? opts.user).toLowerCase();
  const sink: SmtpSink = { host: "127.0.0.1", port: 0, mails, authFailures: 0, close: async () => {} };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: false,
    authMethods: ["PLAIN", "LOGIN"],
    size: opts.maxBytes ?? 10 * 1024 * 1024,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === opts.user && auth.password === opts.password)
        return cb(null, { user: auth.username });
      sink.authFailures++;
      cb(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onMailFrom(address, session, cb) {
      if (!session.user)
        return cb(Object.assign(new Error("Authentication required"), { responseCode: 530 }));
      if (address.address.toLowerCase() !== own)
        return cb(
          Object.assign(new Error(`Sender ${address.address} not owned by user`), { responseCode: 553 }),
        );
      cb();
    },
    onRcptTo(address, _session, cb) {
      if (!ADDRESS.test(address.address))
        return cb(Object.assign(new Error(`Bad recipient ${address.address}`), { responseCode: 553 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if ((stream as { sizeExceeded?: boolean }).sizeExceeded)
          return cb(Object.assign(new Error("Message too big"), { responseCode: 552 }));
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            const env = session.envelope;
            mails.push({
              from: env.mailFrom ? env.mailFrom.address : "",
              to: env.rcptTo.map((r) => r.address),
              raw,
              parsed,
            });
            cb();
          })
          .catch((err: Error) => cb(err));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  sink.port = typeof address === "object" && address ? address.port : 0;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
