// `store:` in config.yaml: where the profile's state lives. SQLite (one state.db in the profile,
// the default) is right for one person on one machine; Postgres lets several processes on several
// machines share one profile's conversations (issue 30).
import { z } from "zod";

export const storeSchema = z
  .strictObject({
    backend: z
      .enum(["sqlite", "postgres"])
      .default("sqlite")
      .describe(
        "sqlite: state.db in the profile (default); postgres: a PostgreSQL 13+ server shared by many processes.",
      ),
    url_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
      .default("IRIS_DATABASE_URL")
      .describe(
        "postgres: the variable (the environment or .env) holding postgres://user:password@host:port/database.",
      ),
    schema: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, "lower-case letters, digits and _, starting with a letter or _")
      .default("iris")
      .describe("postgres: the schema Iris's tables live in (one per profile sharing a database)."),
  })
  .describe("Where the profile's sessions, usage, receipts and leases are kept.");

export type StoreConfig = z.output<typeof storeSchema>;
