// `gateway:` in config.yaml (SPEC G1–G4): who may talk to the bot, when it answers in groups,
// what a message does while a turn runs, and the platforms it connects to.
import { z } from "zod";

const nonEmpty = z.string().min(1);

/**
 * The platforms' own config schemas (SPEC G1): each gateway platform plugin owns its section of
 * `gateway.platforms` and registers it here before the first config is read (the `iris` bin and
 * the gateway do, from the gateway's generated platform index), so host never names a platform.
 * Read before any registration (a front end that runs no gateway), a platform's section is
 * passed through unchecked.
 */
const platformSchemas = new Map<string, z.ZodType>();
let platformsResolved = false;

export function registerPlatformConfigs(schemas: Readonly<Record<string, z.ZodType>>): void {
  const fresh = Object.entries(schemas).filter(([id, s]) => platformSchemas.get(id) !== s);
  if (fresh.length === 0) return;
  // The composed schema is built once, on first use: a later registration would be ignored.
  if (platformsResolved)
    throw new Error(
      `gateway platforms ${fresh.map(([id]) => id).join(", ")} registered after the config schema was first used`,
    );
  for (const [id, s] of fresh) platformSchemas.set(id, s);
}

/** The ids of the registered platforms (what `gateway.platforms` accepts). */
export function registeredPlatforms(): string[] {
  return [...platformSchemas.keys()].sort();
}

const platformsSchema = z.lazy(() => {
  platformsResolved = true;
  if (platformSchemas.size === 0)
    return z.record(z.string(), z.unknown()).describe("The gateway's platforms (checked by the gateway).");
  const shape = Object.fromEntries(
    registeredPlatforms().map((id) => [id, platformSchemas.get(id)?.optional()]),
  );
  return z.strictObject(shape as Record<string, z.ZodOptional<z.ZodType>>);
});

export const gatewaySchema = z.strictObject({
  busy_policy: z
    .enum(["interrupt", "queue", "steer"])
    .default("interrupt")
    .describe(
      "A message while a turn runs: interrupt it and answer the new one, queue it for after, or steer (inject it into the running turn).",
    ),
  allow_all: z.boolean().default(false).describe("Answer everyone: no allowlist, no pairing."),
  require_mention: z
    .boolean()
    .default(true)
    .describe("In group chats, answer only when mentioned, replied to, or called by a wake word."),
  wake_words: z.array(nonEmpty).default([]).describe("Words that count as a mention in group chats."),
  group_sessions: z
    .enum(["shared", "per_user"])
    .default("shared")
    .describe("One session per group chat (speakers merged with names), or one per user in it."),
  pairing: z
    .strictObject({
      code_ttl_minutes: z.int().min(1).max(10_080).default(60),
      max_pending: z.int().min(1).max(1000).default(10).describe("Codes waiting at once per platform."),
    })
    .prefault({}),
  idle_session_minutes: z
    .int()
    .min(1)
    .max(10_080)
    .default(30)
    .describe(
      "A chat's session is closed in memory after this long without messages (it stays in the store).",
    ),
  stop_grace_seconds: z
    .int()
    .min(0)
    .max(3600)
    .default(8)
    .describe(
      "On SIGTERM, how long running turns may go on to finish their answers; a turn still running then is left as a kill would leave it and continued after the restart. `iris gateway stop` and --replace kill after 10 s.",
    ),
  dashboard: z
    .boolean()
    .default(false)
    .describe("Also run the dashboard (dashboard.host/port) inside `iris gateway run`."),
  platforms: platformsSchema.prefault({}),
});

export type GatewayConfig = z.output<typeof gatewaySchema>;
