// Logs: the live tail with level and component filters (the stream itself is logs.ts).
import { type Html, html } from "../html.js";

export function logsPage(file: string): Html {
  return html`<form id="log-filters">
<label>Level <select name="level"><option>debug</option><option>info</option><option>warn</option><option>error</option></select></label>
<label>Component <input name="component" placeholder="all (e.g. gateway, host)" size="20"></label>
<button>Apply</button> <span class="muted">${file}</span></form>
<div id="log-tail" class="logs" data-lines="0" aria-live="polite"></div>`;
}
