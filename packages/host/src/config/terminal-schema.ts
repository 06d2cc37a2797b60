// `terminal:` in config.yaml (SPEC T6): where the session's tools run commands and touch files.
// `local` is this machine; `ssh` a remote host over one persistent shell and SFTP.
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

export const terminalSchema = z
  .strictObject({
    backend: z
      .enum(["local", "ssh"])
      .default("local")
      .describe("Where commands run and files live: local (this machine) or ssh (terminal.ssh)."),
    ssh: sshSchema.optional(),
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
  });
