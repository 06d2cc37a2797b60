// Config: the profile's settings as a form generated from the config schema (its JSON Schema:
// every scalar key with its description, default and current value), the raw YAML editor, and
// the .env keys as set or unset (never a value). Every save is validated like `iris config set`
// (errors name the key and line) and carries the base hash of the file it was made against.
import {
  type ConfigError,
  configJsonSchema,
  envKeys,
  formatConfigErrors,
  parseConfigText,
  readConfigFile,
} from "@iris/host";
import type { DashboardDeps } from "../deps.js";
import { type Html, html } from "../html.js";
import { csrfField } from "../layout.js";

export type ConfigNotice =
  | { kind: "saved"; what: string }
  | { kind: "errors"; errors: ConfigError[]; text?: string }
  | { kind: "stale"; text?: string };

interface Field {
  key: string;
  type: string;
  description: string;
  options?: string[];
  defaultValue?: unknown;
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  anyOf?: JsonSchema[];
};

let cachedFields: Field[] | undefined;

/**
 * The leaves of the schema: scalars, and lists and maps (edited as one JSON value, which is YAML
 * too); objects with named keys are walked.
 */
export function schemaFields(): Field[] {
  if (cachedFields) return cachedFields;
  const out: Field[] = [];
  const walk = (s: JsonSchema, path: string[]) => {
    if (s.properties && (s.type === "object" || s.type === undefined)) {
      for (const [k, v] of Object.entries(s.properties)) walk(v, [...path, k]);
      return;
    }
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (s.enum?.every((e) => typeof e === "string"))
      out.push({
        key: path.join("."),
        type: "enum",
        description: s.description ?? "",
        options: s.enum as string[],
        defaultValue: s.default,
      });
    else if (type === "string" || type === "number" || type === "integer" || type === "boolean")
      out.push({ key: path.join("."), type, description: s.description ?? "", defaultValue: s.default });
    else if (type === "array" || (type === "object" && s.additionalProperties))
      out.push({
        key: path.join("."),
        type: type === "array" ? "list" : "map",
        description: s.description ?? "",
        defaultValue: s.default,
      });
  };
  walk(configJsonSchema() as JsonSchema, []);
  cachedFields = out;
  return out;
}

function valueAt(obj: unknown, key: string): unknown {
  let cur = obj;
  for (const k of key.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

export function configPage(deps: DashboardDeps, csrf: string, notice?: ConfigNotice): Html {
  const paths = deps.profile.home.paths;
  const file = readConfigFile(paths.config);
  const parsed = parseConfigText(file.text, paths.config);
  const effective = parsed.ok ? parsed.config : undefined;
  const text = notice && notice.kind !== "saved" && notice.text !== undefined ? notice.text : file.text;
  return html`${noticeBlock(notice)}
<h2>config.yaml</h2>
<form method="post" action="/config/raw" id="raw-config">${csrfField(csrf)}
<input type="hidden" name="base" value="${file.hash}">
<textarea name="text" rows="18" spellcheck="false" aria-label="config.yaml">${text}</textarea>
<button>Save YAML</button> <span class="muted">${paths.config}</span></form>
<h2>Settings</h2>
<table id="config-fields"><tr><th>Key</th><th>Value</th><th>About</th></tr>
${schemaFields().map((f) => fieldRow(f, effective ? valueAt(effective, f.key) : undefined, file.hash, csrf))}</table>
<h2>.env keys</h2>
${envTable(envKeys(paths.env))}`;
}

function noticeBlock(n: ConfigNotice | undefined): Html | string {
  if (!n) return "";
  if (n.kind === "saved")
    return html`<p class="ok" role="status" id="config-notice" data-saved="yes">Saved ${n.what}.</p>`;
  if (n.kind === "stale")
    return html`<p class="error" role="alert" id="config-notice" data-refused="stale">Not saved: config.yaml changed since this page read it (another edit). Reload and apply your change again.</p>`;
  return html`<pre class="error" role="alert" id="config-notice" data-refused="invalid">Not saved:\n${formatConfigErrors(n.errors)}</pre>`;
}

function fieldRow(f: Field, value: unknown, base: string, csrf: string): Html {
  const shown = value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  const input =
    f.type === "list" || f.type === "map"
      ? html`<textarea name="value" rows="2" cols="36" spellcheck="false" aria-label="${f.key} (JSON ${f.type === "list" ? "list" : "map"})">${JSON.stringify(value ?? f.defaultValue ?? (f.type === "list" ? [] : {}))}</textarea>`
      : f.type === "boolean"
        ? html`<select name="value"><option${value === true ? html` selected` : ""}>true</option><option${value === false ? html` selected` : ""}>false</option></select>`
        : f.options
          ? html`<select name="value">${f.options.map((o) => html`<option${o === value ? html` selected` : ""}>${o}</option>`)}</select>`
          : html`<input name="value" value="${shown}" size="28" ${f.type === "string" ? "" : html`inputmode="decimal"`}>`;
  return html`<tr data-key="${f.key}"><td><code>${f.key}</code></td><td><form method="post" action="/config/key" class="inline">${csrfField(csrf)}
<input type="hidden" name="key" value="${f.key}"><input type="hidden" name="base" value="${base}">${input} <button>Set</button></form></td>
<td class="muted">${f.description}${f.defaultValue !== undefined ? ` (default ${JSON.stringify(f.defaultValue)})` : ""}</td></tr>`;
}

function envTable(keys: { key: string; set: boolean }[]): Html {
  if (!keys.length) return html`<p class="muted">No .env file, or no keys in it.</p>`;
  return html`<table id="env-keys"><tr><th>Key</th><th>State</th></tr>${keys.map(
    (k) => html`<tr><td><code>${k.key}</code></td><td>${k.set ? "set" : "empty"}</td></tr>`,
  )}</table>`;
}
