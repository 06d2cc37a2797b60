// The dashboard front end (SPEC E1): a client of host only. `iris dashboard` starts it.
export type { DashboardCron } from "./cron-port.js";
export {
  type DashboardOptions,
  DashboardStartError,
  type RunningDashboard,
  startDashboard,
} from "./server.js";
