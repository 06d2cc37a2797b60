// The secrets a command must never see (issue 13): variables named by any provider's key
// variable or a configured `api_key_env`, and any variable whose value is a registered secret,
// whatever its name (`MY_LLM_KEY`, `AWS_BEARER_TOKEN_BEDROCK`). One registry per process: the
// keys belong to the profile the process runs, not to a conversation.
import { registeredSecrets } from "@iris/llm";

/** Values shorter than this are not treated as secrets: they would match ordinary values. */
const MIN_SECRET_LENGTH = 8;

export class SecretRegistry {
  private readonly names = new Set<string>();
  private readonly values = new Set<string>();

  addNames(names: Iterable<string>): void {
    for (const n of names) if (n) this.names.add(n);
  }

  addValues(values: Iterable<string | undefined>): void {
    for (const v of values)
      if (v !== undefined && v.trim().length >= MIN_SECRET_LENGTH) this.values.add(v.trim());
  }

  /** Whether a variable must be kept from child processes. */
  hides(name: string, value: string): boolean {
    if (this.names.has(name)) return true;
    for (const secret of this.values) if (value.includes(secret)) return true;
    // Every value registered for log redaction (API keys, .env values) is a secret here too.
    for (const secret of registeredSecrets()) if (value.includes(secret)) return true;
    return false;
  }
}

export const processSecrets = new SecretRegistry();
