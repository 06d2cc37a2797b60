// Matrix as a gateway platform: one sync loop per account on the machine (two would both answer).
import { join } from "node:path";
import { definePlatform, type PlatformPlace } from "../plugin.js";
import { Speech } from "../voice/speech.js";
import { MatrixAdapter } from "./adapter.js";
import { config, type MatrixConfig } from "./config.js";

function tokenOf(c: MatrixConfig, place: PlatformPlace): string {
  const token = place.env[c.token_env]?.trim();
  if (!token)
    throw new Error(
      `gateway.platforms.matrix: ${c.token_env} is not set; put the bot's access token in the profile's .env as ${c.token_env}=…`,
    );
  return token;
}

export default definePlatform<MatrixConfig>({
  id: "matrix",
  schema: config,
  create: (c, ctx) =>
    new MatrixAdapter({
      homeserver: c.homeserver.replace(/\/+$/, ""),
      userId: c.user_id,
      token: tokenOf(c, ctx),
      tokenEnv: c.token_env,
      syncFile: join(ctx.home, "gateway-files", "matrix", "sync-token"),
      logger: ctx.logger,
      filesDir: join(ctx.home, "gateway-files", "matrix", "media"),
      ...(c.voice ? { speech: new Speech(c.voice, ctx.env, "matrix") } : {}),
    }),
  identity: (c) => `matrix:${c.user_id}`,
  describe: (c) => `account ${c.user_id}`,
  allowedUsers: (c) => c.allowed_users,
  sendTargets: () => [],
  formattingHint:
    "This chat is Matrix: replies are shown as plain text (Markdown is not rendered); keep answers short.",
  targetExample: "matrix:!room:example.org",
});
