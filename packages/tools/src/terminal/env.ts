// The environment commands run with: the agent's own, minus anything that looks like a secret,
// so a command (or a model reading `env`) cannot leak provider keys. Removed: names ending in
// _API_KEY, _TOKEN, _SECRET, _SECRET_KEY, _PASSWORD, _ACCESS_KEY (any case), plus our own
// IRIS_* secrets under the same rule. Pagers are forced off because no one reads a pager here.
const SECRET_NAME = /(?:_API_KEY|_TOKEN|_SECRET|_SECRET_KEY|_PASSWORD|_ACCESS_KEY)$/i;

export function isSecretEnvName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export function commandEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && !isSecretEnvName(k)) env[k] = v;
  }
  env.PAGER = "cat";
  env.GIT_PAGER = "cat";
  return env;
}
