// A session's explicit switches between turns: another model (SPEC S2, H7) or another workspace.
// Both rebuild the frozen prompt of a started session, since it names the model and the workspace.
import type { SessionParts } from "./session-parts.js";
import { switchSessionWorkspace, type WorkspaceBackend } from "./workspace-setup.js";

/** Re-resolves the route, rebuilds the prompt, and warns when the switch costs the prompt cache
 * of a long history. `spec` is "MODEL" (same provider) or "PROVIDER/MODEL". */
export async function switchModel(
  parts: SessionParts,
  spec: string,
): Promise<{ ok: true; warnings: string[] } | { ok: false; error: string }> {
  const resolved = parts.models.resolve(spec);
  if (!resolved.ok) return { ok: false, error: resolved.error };
  const { record, prompt } = parts;
  const warnings = record.started ? await parts.context.switchRisks() : [];
  parts.models.switchTo(resolved.runtime);
  parts.routeSwitched(); // thresholds follow the new route (SPEC M2)
  if (record.started) await record.switched(prompt.build(), resolved.runtime);
  return { ok: true, warnings: [...warnings, ...resolved.notes] };
}

/** Reaches the new workspace first (down: throws, nothing changes); the prompt is rebuilt only
 * when the workspace really changed (the prompt cache is kept otherwise). Its description. */
export async function switchWorkspace(parts: SessionParts, backend: WorkspaceBackend): Promise<string> {
  const { workspace, profile, cwd } = parts.opts;
  const before = workspace.description;
  const now = await switchSessionWorkspace(workspace, profile, cwd, backend);
  const { record, prompt } = parts;
  if (now !== before && record.started) await record.switched(prompt.build(), parts.models.runtime);
  return now;
}
