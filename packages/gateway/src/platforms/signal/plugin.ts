// Signal as a gateway platform: one event reader per account on the machine (two would each
// take part of the account's messages).
import { join } from "node:path";
import { definePlatform } from "../plugin.js";
import { Speech } from "../voice/speech.js";
import { SignalAdapter } from "./adapter.js";
import { config, type SignalConfig } from "./config.js";

export default definePlatform<SignalConfig>({
  id: "signal",
  schema: config,
  create: (c, ctx) =>
    new SignalAdapter({
      config: c,
      filesDir: join(ctx.home, "gateway-files", "signal"),
      logger: ctx.logger,
      ...(c.voice ? { speech: new Speech(c.voice, ctx.env, "signal") } : {}),
    }),
  identity: (c) => `signal:${c.account}`,
  describe: (c) => `account ${c.account}`,
  allowedUsers: (c) => c.allowed_users,
  sendTargets: () => [],
  formattingHint:
    "This chat is Signal: replies are shown as plain text (Markdown is not rendered); keep answers short.",
  targetExample: "signal:+15551234567",
});
