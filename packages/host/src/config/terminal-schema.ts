// `terminal:` in config.yaml (SPEC T6): where the session's tools run commands and touch files.
// `local` is this machine; `ssh` a remote host over one persistent shell and SFTP; `docker` a
// container (Docker or Podman through the Engine API) with the work folder bind-mounted.
import { z } from "zod";

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

export const sshSchema = z.strictObject({
  host: z.string().min(1).describe("The remote host (name or address)."),
  port: z.int().min(1).max(65_535).default(22),
  user: z.string().min(1).describe("The remote user to log in as."),
  key_path: z
    .string()
    .min(1)
    .default("~/.ssh/id_ed25519")
    .describe("Private key file (no passphrase) used to log in; `~` is this machine's home."),
  known_hosts: z
    .string()
    .min(1)
    .default("~/.ssh/known_hosts")
    .describe(
      "The host key must be listed here (ssh-keyscan HOST >> FILE); an unknown or changed key is refused.",
    ),
  remote_dir: z
    .string()
    .regex(/^\//, "an absolute path on the remote host")
    .describe("The work folder on the remote host: commands start there, relative paths point there."),
  connect_timeout_seconds: z.int().min(1).max(300).default(15),
});

const byteSize = z
  .string()
  .regex(/^\d+(\.\d+)?\s*[kmg]?b?$/i, 'a size such as "512m" or "2g"')
  .describe('A size: bytes, or with k, m or g ("512m", "2g").');

export const dockerMountSchema = z.strictObject({
  host: z.string().regex(/^(\/|~)/, "an absolute path on this machine (or ~/…)"),
  container: z.string().regex(/^\//, "an absolute path in the container"),
  read_only: z.boolean().default(false),
});

export const dockerSchema = z.strictObject({
  image: z
    .string()
    .min(1)
    .describe("The image commands run in; it must already be on the engine (Iris never pulls)."),
  socket: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The Engine API's unix socket: default $DOCKER_HOST (unix://…), else /var/run/docker.sock; for Podman e.g. /run/podman/podman.sock.",
    ),
  mounts: z.array(dockerMountSchema).default([]).describe("More bind mounts besides the work folder."),
  network: z
    .enum(["none", "bridge"])
    .default("none")
    .describe("none: the container has no network (only loopback); bridge: the engine's default network."),
  memory: byteSize.optional().describe('Memory limit of the container ("1g").'),
  pids: z.int().min(16).optional().describe("Most processes the container may hold at once."),
  relax_approvals: z
    .boolean()
    .default(false)
    .describe(
      "With network none only: the container's commands run without approval (file tools, credentials and Iris's own files still ask). The work folder is bind-mounted, so its files can still be changed.",
    ),
  scope: z
    .enum(["session", "profile"])
    .default("session")
    .describe(
      "session: a container per session, removed when it ends; profile: one per profile and work folder, kept running.",
    ),
});

export const terminalSchema = z
  .strictObject({
    backend: z
      .enum(["local", "ssh", "docker"])
      .default("local")
      .describe(
        "Where commands run and files live: local (this machine), ssh (terminal.ssh) or docker (terminal.docker).",
      ),
    ssh: sshSchema.optional(),
    docker: dockerSchema.optional(),
    env_passthrough: z
      .array(envName)
      .default([])
      .describe(
        "Variables of the profile's environment (.env included) given to commands on a remote workspace; none by default.",
      ),
  })
  .superRefine((t, ctx) => {
    if (t.backend === "ssh" && !t.ssh)
      ctx.addIssue({
        code: "custom",
        path: ["ssh"],
        message: "backend ssh needs terminal.ssh (host, user, remote_dir)",
      });
    if (t.backend === "docker" && !t.docker)
      ctx.addIssue({
        code: "custom",
        path: ["docker"],
        message: "backend docker needs terminal.docker (image)",
      });
  });

/** `code_execution:` (SPEC T6): what execute_code's programs may call and how long and much they may run. */
export const codeExecutionSchema = z.strictObject({
  tools: z
    .array(z.string().min(1))
    .default(["read_file", "write_file", "patch", "search_files", "terminal", "web_search", "web_extract"])
    .describe("The tools a program may call (only those the session offers; never execute_code itself)."),
  timeout_seconds: z.int().min(1).max(3600).default(300).describe("A run is stopped after this long."),
  max_tool_calls: z
    .int()
    .min(1)
    .max(10_000)
    .default(50)
    .describe("Tool calls one run may make; later ones are refused."),
  max_output_bytes: z
    .int()
    .min(1000)
    .max(10_000_000)
    .default(50_000)
    .describe("Printed output kept (the start and the end) before it is cut."),
});
