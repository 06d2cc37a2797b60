// `mcp_servers` in config.yaml, in the shape users already have from Claude Desktop:
// `{NAME: {command, args, env, cwd} | {url, headers}}`, plus Iris's own per-server keys.
// `${VAR}` placeholders in command, args, env, cwd, url and headers are expanded from the
// profile's environment (.env over the shell); a placeholder with no value is an error that names it.
import { z } from "zod";

const common = {
  enabled: z.boolean().default(true).describe("false: configured but not started."),
  include_tools: z
    .array(z.string().min(1))
    .optional()
    .describe("Only these tools of the server are offered (server-side names)."),
  exclude_tools: z.array(z.string().min(1)).default([]).describe("Tools of the server never offered."),
  timeout_s: z
    .number()
    .positive()
    .max(3600)
    .default(30)
    .describe("Limit of the connection handshake and of each tool call, in seconds."),
};

export const mcpStdioServerSchema = z.strictObject({
  type: z.literal("stdio").optional(),
  command: z.string().min(1).describe("The program that runs the server (stdio)."),
  args: z.array(z.string()).default([]),
  env: z
    .record(z.string(), z.string())
    .default({})
    .describe("Variables given to the server; it inherits only PATH, HOME and a few others."),
  cwd: z.string().min(1).optional(),
  ...common,
});

export const mcpHttpServerSchema = z.strictObject({
  type: z
    .enum(["http", "sse"])
    .optional()
    .describe("http: streamable HTTP; sse: the older HTTP+SSE transport. Default: try http, then sse."),
  url: z.url({ protocol: /^https?$/ }).describe("The server's endpoint (streamable HTTP or SSE)."),
  headers: z.record(z.string(), z.string()).default({}),
  ...common,
});

export const mcpServerSchema = z.union([mcpStdioServerSchema, mcpHttpServerSchema]);
export const mcpServersSchema = z
  .record(z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "letters, digits, _ and - (at most 40)"), mcpServerSchema)
  .default({})
  .describe("MCP servers whose tools the agent may use, as in Claude Desktop's mcpServers.");

export type McpServerConfig = z.output<typeof mcpServerSchema>;
export type McpStdioConfig = z.output<typeof mcpStdioServerSchema>;
export type McpHttpConfig = z.output<typeof mcpHttpServerSchema>;

export function isStdio(c: McpServerConfig): c is McpStdioConfig {
  return "command" in c;
}

/** Replaces `${VAR}` from `env`; throws naming the first variable that has no value. */
export function expandPlaceholders(
  text: string,
  env: Record<string, string | undefined>,
  where: string,
): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name];
    if (value === undefined) throw new Error(`${where}: \${${name}} is not set in the environment or .env`);
    return value;
  });
}

function expandRecord(
  record: Record<string, string>,
  env: Record<string, string | undefined>,
  where: string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).map(([k, v]) => [k, expandPlaceholders(v, env, `${where}.${k}`)]),
  );
}

/** The server's config with every placeholder expanded (throws with the key's path). */
export function expandServerConfig(
  name: string,
  config: McpServerConfig,
  env: Record<string, string | undefined>,
): McpServerConfig {
  const at = `mcp_servers.${name}`;
  if (isStdio(config)) {
    return {
      ...config,
      command: expandPlaceholders(config.command, env, `${at}.command`),
      args: config.args.map((a, i) => expandPlaceholders(a, env, `${at}.args[${i}]`)),
      env: expandRecord(config.env, env, `${at}.env`),
      ...(config.cwd !== undefined ? { cwd: expandPlaceholders(config.cwd, env, `${at}.cwd`) } : {}),
    };
  }
  return {
    ...config,
    url: expandPlaceholders(config.url, env, `${at}.url`),
    headers: expandRecord(config.headers, env, `${at}.headers`),
  };
}
