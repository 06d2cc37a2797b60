// The environment commands run with: the agent's own, minus anything that is or looks like a
// secret, so a command (or a model reading `env`) cannot leak provider keys. Removed: names
// ending in _API_KEY, _TOKEN, _SECRET, _SECRET_KEY, _PASSWORD, _ACCESS_KEY (any case), every name
// and value in the process's secret registry (provider key variables, configured api_key_env,
// the keys themselves). Pagers are forced off because no one reads a pager here.
import { processSecrets, type SecretRegistry } from "./secrets.js";

const SECRET_NAME = /(?:_API_KEY|_TOKEN|_SECRET|_SECRET_KEY|_PASSWORD|_ACCESS_KEY)$/i;

export function isSecretEnvName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export function commandEnv(
  base: NodeJS.ProcessEnv = process.env,
  secrets: SecretRegistry = processSecrets,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && !isSecretEnvName(k) && !secrets.hides(k, v)) env[k] = v;
  }
  env.PAGER = "cat";
  env.GIT_PAGER = "cat";
  return env;
}
