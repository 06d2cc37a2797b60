// `dashboard:` in config.yaml: where `iris dashboard` (and the gateway's, with gateway.dashboard)
// listens. Loopback by default; another address is allowed (its login token still guards it).
import { z } from "zod";

export const dashboardSchema = z.strictObject({
  host: z.string().min(1).default("127.0.0.1").describe("Address to bind (default loopback only)."),
  port: z.int().min(0).max(65535).default(9119).describe("Port (0 = any free port)."),
  monthly_budget_usd: z
    .number()
    .positive()
    .optional()
    .describe("Spend per calendar month (UTC) the usage page draws as a budget line with its pace."),
});

export type DashboardConfig = z.output<typeof dashboardSchema>;
