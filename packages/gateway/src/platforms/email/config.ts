// gateway.platforms.email (SPEC G1): one mailbox read over IMAP (IDLE) and answered over SMTP.
// Passwords are read from the profile's environment (its .env), never from config.yaml.
import { z } from "zod";

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

const server = (port: number, secure: boolean, what: string) =>
  z
    .strictObject({
      host: z.string().min(1).describe(`The ${what} server's host name.`),
      port: z.int().min(1).max(65535).default(port).describe(`The ${what} server's port.`),
      secure: z
        .boolean()
        .default(secure)
        .describe("TLS from the first byte (993, 465); false: STARTTLS when the server offers it."),
      user: z.string().min(1).optional().describe("The login name (default: address)."),
      password_env: envName
        .default("EMAIL_PASSWORD")
        .describe("The environment variable (or .env key) that holds the password."),
    })
    .describe(`The ${what} server.`);

export const config = z
  .strictObject({
    address: z.email().describe("The bot's own address: the From of its replies, the mailbox it reads."),
    name: z.string().min(1).default("Iris").describe("The display name of the bot's replies."),
    imap: server(993, true, "IMAP"),
    smtp: server(587, false, "SMTP"),
    mailbox: z.string().min(1).default("INBOX").describe("The IMAP folder read for new mail."),
    allowed_senders: z
      .array(z.email())
      .default([])
      .describe(
        "Senders answered without pairing (addresses; From is checked, so let the mail server reject forged senders).",
      ),
    max_attachment_bytes: z
      .int()
      .min(0)
      .default(10 * 1024 * 1024)
      .describe("Attachments larger than this are named to the model, not saved."),
  })
  .describe("E-mail (IMAP IDLE in, SMTP out): each thread is a session.");

export type EmailConfig = z.output<typeof config>;
