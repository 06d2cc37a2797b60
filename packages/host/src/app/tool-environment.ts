// The tools' view of the profile (SPEC T): the environment with .env applied, a secret read by a
// tool registered with the logger's redaction and stripped from child processes, and the
// web/browser/vision settings of config.yaml.
import { registerSecret } from "@iris/llm";
import { type PageIndex, processSecrets, type ToolEnvironment, toolEnvironment } from "@iris/tools";
import type { IrisConfig } from "../config/index.js";
import { imageDescriber } from "./describe-image.js";

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

export function profileToolEnvironment(
  config: IrisConfig,
  env: Readonly<Record<string, string | undefined>>,
  pages?: PageIndex,
): ToolEnvironment {
  const { web, browser, vision, code_execution: code } = config;
  const describeImage = imageDescriber(config, definedOnly(env));
  return toolEnvironment({
    env,
    registerSecret: (value) => {
      registerSecret(value);
      processSecrets.addValues([value]);
    },
    web: {
      search: {
        ...(web.search.backend ? { backend: web.search.backend } : {}),
        ...(web.search.base_url ? { baseUrl: web.search.base_url } : {}),
        ...(web.search.api_key_env ? { apiKeyEnv: web.search.api_key_env } : {}),
        maxResults: web.search.max_results,
        cacheSeconds: web.search.cache_seconds,
      },
      extract: {
        maxChars: web.extract.max_chars,
        timeoutSeconds: web.extract.timeout_seconds,
        concurrency: web.extract.concurrency,
      },
      policy: { allowPrivate: web.allow_private, allowHosts: web.allow_hosts },
    },
    browser: {
      ...(browser.executable ? { executable: browser.executable } : {}),
      enabled: browser.enabled,
      idleSeconds: browser.idle_seconds,
      actionTimeoutSeconds: browser.action_timeout_seconds,
      headless: browser.headless,
    },
    vision: vision.model ? { model: vision.model } : {},
    ...(pages ? { pages } : {}),
    code: {
      tools: code.tools,
      timeoutSeconds: code.timeout_seconds,
      maxToolCalls: code.max_tool_calls,
      maxOutputBytes: code.max_output_bytes,
    },
    ...(describeImage ? { describeImage } : {}),
  });
}
