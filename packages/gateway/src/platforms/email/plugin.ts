// E-mail as a gateway platform: one reader per mailbox on the machine (two would race to mark the
// same mail \Seen and both answer it).
import { join } from "node:path";
import { definePlatform, type PlatformPlace } from "../plugin.js";
import { EmailAdapter, type MailServer } from "./adapter.js";
import { config, type EmailConfig } from "./config.js";

type Server = EmailConfig["imap"];

function serverOf(c: EmailConfig, s: Server, key: "imap" | "smtp", place: PlatformPlace): MailServer {
  const password = place.env[s.password_env];
  if (!password)
    throw new Error(
      `gateway.platforms.email.${key}: ${s.password_env} is not set; put the mailbox password in the profile's .env as ${s.password_env}=…`,
    );
  return {
    host: s.host,
    port: s.port,
    secure: s.secure,
    user: s.user ?? c.address,
    password,
    passwordEnv: s.password_env,
  };
}

export default definePlatform<EmailConfig>({
  id: "email",
  schema: config,
  create: (c, ctx) =>
    new EmailAdapter({
      address: c.address,
      name: c.name,
      imap: serverOf(c, c.imap, "imap", ctx),
      smtp: serverOf(c, c.smtp, "smtp", ctx),
      mailbox: c.mailbox,
      maxAttachmentBytes: c.max_attachment_bytes,
      filesDir: join(ctx.home, "gateway-files", "email"),
      logger: ctx.logger,
    }),
  identity: (c) =>
    `email:${(c.imap.user ?? c.address).toLowerCase()}@${c.imap.host.toLowerCase()}:${c.mailbox}`,
  describe: (c) => `mailbox ${c.address}`,
  allowedUsers: (c) => c.allowed_senders.map((a) => a.toLowerCase()),
  sendTargets: () => [],
  formattingHint:
    "This chat is e-mail: replies are sent as plain-text mail (Markdown is shown as typed); write complete, self-contained answers; do not quote the sender's mail back.",
  targetExample: "email:someone@example.com",
});
