// The few edits Iris makes to config.yaml on the user's behalf, keeping their comments and order.
import { addToConfigList } from "../config/index.js";

/**
 * The "always" approval answer: the pattern key joins approvals.allow (SPEC T4). The list node is
 * appended to in place, so comments on earlier items and the file's order stay as written.
 */
export function appendAllowedPattern(configPath: string, key: string): void {
  const r = addToConfigList(configPath, ["approvals", "allow"], key);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("; "));
}
