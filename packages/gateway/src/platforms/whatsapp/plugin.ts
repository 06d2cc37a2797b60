// WhatsApp (Cloud API) as a gateway platform: one webhook receiver per business phone number on
// the machine.
import { join } from "node:path";
import { definePlatform, type PlatformPlace } from "../plugin.js";
import { Speech } from "../voice/speech.js";
import { WhatsappAdapter } from "./adapter.js";
import { config, type WhatsappConfig } from "./config.js";

function secret(place: PlatformPlace, name: string, what: string): string {
  const v = place.env[name]?.trim();
  if (!v)
    throw new Error(
      `gateway.platforms.whatsapp: ${name} is not set; put ${what} in the profile's .env as ${name}=…`,
    );
  return v;
}

export default definePlatform<WhatsappConfig>({
  id: "whatsapp",
  schema: config,
  create: (c, ctx) =>
    new WhatsappAdapter({
      config: c,
      token: secret(ctx, c.token_env, "the Graph API access token"),
      appSecret: secret(ctx, c.app_secret_env, "the app secret"),
      verifyToken: secret(ctx, c.verify_token_env, "the webhook verify token"),
      filesDir: join(ctx.home, "gateway-files", "whatsapp"),
      logger: ctx.logger,
      ...(c.voice ? { speech: new Speech(c.voice, ctx.env, "whatsapp") } : {}),
    }),
  identity: (c) => `whatsapp:${c.phone_number_id}`,
  describe: (c) => `phone number id ${c.phone_number_id}`,
  eventsOverHttp: () => true,
  allowedUsers: (c) => c.allowed_users,
  sendTargets: () => [],
  formattingHint:
    "This chat is WhatsApp: *bold*, _italic_, ~strike~ and ```code``` are shown; no headings or tables; a message holds at most 4096 characters.",
  targetExample: "whatsapp:15551234567",
  startNotice: (a) => (a instanceof WhatsappAdapter ? `WhatsApp webhook at ${a.url}` : undefined),
});
