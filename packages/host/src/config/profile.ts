// Start-up in one call (SPEC K2: config and .env are read once, at process start): resolve the
// home, create it if needed, read config.yaml and .env, register every secret with the logger.
import { registerSecret } from "@iris/llm";
import { loadDotenv, mergeEnv } from "./dotenv.js";
import { ensureHome, type Home, ProfileNameError, resolveHome } from "./home.js";
import { type ConfigError, loadConfig } from "./load.js";
import type { IrisConfig } from "./schema.js";

export interface Profile {
  ok: true;
  home: Home;
  config: IrisConfig;
  /** What the profile's .env defines. */
  dotenv: Record<string, string>;
  /** Process environment with .env applied (see `mergeEnv` for the precedence). */
  env: Record<string, string>;
  /** For the caller to show (on stderr); nothing here is printed. */
  warnings: string[];
}

export type ProfileResult = Profile | { ok: false; home?: Home; errors: ConfigError[] };

export interface LoadProfileOptions {
  env: Record<string, string | undefined>;
  profile?: string;
  /** Create the profile folder (0700) when missing; default true. */
  create?: boolean;
  /** Defaults to `registerSecret` of @iris/llm. */
  registerSecret?: (value: string) => void;
  /** Leave out rejected keys with a warning (commands that only read); default false. */
  lenient?: boolean;
}

/** Header names whose values are credentials (others, like HTTP-Referer, stay readable in logs). */
const SECRET_HEADER = /auth|key|token|secret|cookie/i;

export function loadProfile(opts: LoadProfileOptions): ProfileResult {
  let home: Home;
  try {
    home = resolveHome({ env: opts.env, ...(opts.profile !== undefined ? { profile: opts.profile } : {}) });
  } catch (err) {
    if (!(err instanceof ProfileNameError)) throw err;
    return { ok: false, errors: [{ file: "--profile", line: 0, column: 0, key: "", message: err.message }] };
  }
  if (opts.create !== false) {
    try {
      ensureHome(home);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "error";
      const message = `cannot create the profile folder (${code}); set IRIS_HOME to a writable folder`;
      return { ok: false, home, errors: [{ file: home.root, line: 0, column: 0, key: "", message }] };
    }
  }

  const loaded = loadConfig(home.paths.config, { lenient: opts.lenient === true });
  if (!loaded.ok) return { ok: false, home, errors: loaded.errors };

  const dotenv = loadDotenv(home.paths.env);
  const merged = mergeEnv(opts.env, dotenv.values);

  // Every .env value counts as a secret: the file is for secrets only, and a value that is not
  // one (a short flag) is skipped by registerSecret's minimum length anyway.
  const register = opts.registerSecret ?? registerSecret;
  for (const v of Object.values(dotenv.values)) register(v);
  for (const p of Object.values(loaded.config.providers)) {
    if (p.api_key) register(p.api_key);
    for (const [name, h] of Object.entries(p.headers ?? {})) if (SECRET_HEADER.test(name)) register(h);
  }

  return {
    ok: true,
    home,
    config: loaded.config,
    dotenv: dotenv.values,
    env: merged.env,
    warnings: [...loaded.warnings, ...dotenv.warnings, ...merged.warnings],
  };
}
