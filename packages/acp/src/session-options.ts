// What an editor shows beside a session: the approval modes (its mode picker) and the model
// (a config option of category "model"; ACP has no set_model).
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk/unstable";
import { availableBackends, type IrisProcess, type Session } from "@iris/host";

export const MODES: SessionModeState["availableModes"] = [
  { id: "manual", name: "Ask", description: "Dangerous commands wait for your permission" },
  {
    id: "smart",
    name: "Smart",
    description: "An auxiliary model may approve low-risk commands; the rest are asked",
  },
  { id: "off", name: "Never ask", description: "No approvals (hard-blocked commands stay blocked)" },
];

export function modeState(session: Session): SessionModeState {
  return { currentModeId: session.approvalMode, availableModes: MODES };
}

/** Most models offered in the picker (the catalogue knows hundreds for some providers). */
const MAX_MODEL_CHOICES = 100;

export function modelOption(
  session: Session,
  iris: IrisProcess,
  catalogue: (provider: string) => string[],
): SessionConfigOption {
  const current = `${session.runtime.provider}/${session.runtime.model}`;
  const config = iris.profile.config;
  // The profile's own model stays offered after a switch, so the editor can switch back.
  const values = new Set<string>([current, `${config.model.provider}/${config.model.name}`]);
  for (const f of config.fallback_providers) values.add(`${f.provider}/${f.model}`);
  const providers = new Set<string>([session.runtime.provider, ...Object.keys(config.providers)]);
  for (const p of providers)
    for (const m of catalogue(p)) if (values.size < MAX_MODEL_CHOICES) values.add(`${p}/${m}`);
  return {
    id: "model",
    name: "Model",
    category: "model",
    type: "select",
    currentValue: current,
    options: [...values].map((v) => ({ value: v, name: v })),
  };
}

/**
 * Where the session's tools run, when the profile configures more than this machine (SPEC T6):
 * the editor moves this session to another backend through session/set_config_option.
 */
export function workspaceOptions(session: Session): SessionConfigOption[] {
  const kinds = availableBackends(session.config);
  if (kinds.length < 2) return [];
  const current = session.workspace.kind;
  return [
    {
      id: "workspace",
      name: "Workspace",
      description: session.workspace.description,
      category: "workspace",
      type: "select",
      currentValue: current,
      options: kinds.map((k) => ({ value: k, name: k })),
    },
  ];
}
