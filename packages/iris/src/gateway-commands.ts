// `iris gateway …` and `iris pairing …`: the messaging gateway's commands. The gateway package
// is loaded only when one of them runs.

import type { GlobalFlags } from "@iris/cli";
import type { PlatformCli } from "@iris/gateway/platform-configs";
import { type Command, Option } from "commander";

function io(program: Command) {
  const flags = program.opts<GlobalFlags>();
  return {
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
    out: (s: string) => void process.stdout.write(s),
    err: (s: string) => void process.stderr.write(s),
  };
}

/** `platformClis`: each platform's own subcommands, loaded by main() only when the command is `gateway`. */
export function addGatewayCommands(
  program: Command,
  platformClis: Readonly<Record<string, PlatformCli>> = {},
): void {
  const gateway = program.command("gateway").description("the messaging gateway: one per profile");
  gateway
    .command("run")
    .description("run the gateway in the foreground (IRC and other configured platforms)")
    .option("--replace", "stop a running gateway of this profile and take over (within 10 s)")
    .action(async (o: { replace?: boolean }) => {
      // With gateway.dashboard the dashboard runs beside it (commands/gateway-dashboard.ts).
      const { gatewayRunWithDashboard } = await import("./commands/gateway-dashboard.js");
      const code = await gatewayRunWithDashboard({
        ...io(program),
        ...(o.replace ? { replace: true } : {}),
      });
      // Stopped and released: exit now. A client library's timers would otherwise hold the
      // process (matrix-js-sdk leaves each request's 80–110 s timeout running), past a service
      // manager's stop timeout.
      process.exit(code);
    });
  gateway
    .command("stop")
    .description("stop this profile's gateway (--all: every profile's)")
    .option("--all", "every profile's gateway")
    .action(async (o: { all?: boolean }) => {
      const { gatewayStop } = await import("@iris/gateway");
      process.exitCode = await gatewayStop(io(program), o.all === true);
    });
  gateway
    .command("status")
    .description("whether this profile's gateway runs, and its pid (exit 3 when not running)")
    .action(async () => {
      const { gatewayStatus } = await import("@iris/gateway");
      process.exitCode = gatewayStatus(io(program));
    });
  // Each platform's own subcommands (`iris gateway webchat add-user NAME`), from its plugin folder.
  for (const [id, cli] of Object.entries(platformClis)) {
    const group = gateway.command(id).description(cli.description);
    for (const c of cli.commands)
      group
        .command([c.name, ...c.args.map((a) => `<${a}>`)].join(" "))
        .description(c.description)
        .action(async (...given: unknown[]) => {
          const args = given.slice(0, c.args.length).map(String);
          process.exitCode = await c.run(io(program), args);
        });
  }

  const cron = program.command("cron").description("scheduled jobs the gateway runs and posts to a chat");
  cron.command("list").action(async () => {
    const { cronList } = await import("@iris/gateway");
    process.exitCode = cronList(io(program));
  });
  cron
    .command("add <schedule> <prompt...>")
    .description('SCHEDULE: "every 30m", "at 2026-12-24T18:00Z" or a cron expression ("0 9 * * 1-5")')
    .requiredOption("--to <platform:chat>", "where the reply goes: PLATFORM:CHAT (a channel or a user)")
    .addOption(
      new Option("--missed <policy>", "a slot missed while stopped").choices(["run", "skip"]).default("run"),
    )
    .action(async (schedule: string, prompt: string[], o: { to: string; missed: "run" | "skip" }) => {
      const { cronAdd } = await import("@iris/gateway");
      process.exitCode = cronAdd(io(program), schedule, o.to, prompt.join(" "), o.missed);
    });
  cron.command("remove <id>").action(async (id: string) => {
    const { cronRemove } = await import("@iris/gateway");
    process.exitCode = cronRemove(io(program), id);
  });

  const pairing = program.command("pairing").description("who may DM the gateway's bot");
  pairing
    .command("list")
    .description("pairing codes waiting for approval, and approved users")
    .action(async () => {
      const { pairingList } = await import("@iris/gateway");
      process.exitCode = pairingList(io(program));
    });
  pairing
    .command("approve <code>")
    .description("approve the user who was given CODE")
    .action(async (code: string) => {
      const { pairingApprove } = await import("@iris/gateway");
      process.exitCode = pairingApprove(io(program), code);
    });
  pairing
    .command("revoke <user>")
    .description("revoke an approved user (nick or id)")
    .option("--platform <name>", "only on this platform")
    .action(async (user: string, o: { platform?: string }) => {
      const { pairingRevoke } = await import("@iris/gateway");
      process.exitCode = pairingRevoke(io(program), user, o.platform);
    });
}
