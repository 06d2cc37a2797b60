// The frame of every page: navigation, the CSRF token for htmx requests (hx-headers) and forms,
// and the assets served from node_modules. No inline script: the CSP allows scripts of this
// origin only, so text from the store can never run as code.
import { type Child, type Html, html } from "./html.js";

const NAV: [string, string][] = [
  ["/", "Overview"],
  ["/usage", "Usage & cost"],
  ["/sessions", "Sessions"],
  ["/approvals", "Approvals"],
  ["/cron", "Cron"],
  ["/logs", "Logs"],
  ["/config", "Config"],
];

export function page(opts: {
  title: string;
  path: string;
  csrf: string;
  body: Child;
  charts?: boolean;
}): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · Iris dashboard</title>
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="/assets/style.css">
${opts.charts ? html`<link rel="stylesheet" href="/assets/uplot.css"><script src="/assets/uplot.js"></script>` : ""}
<script src="/assets/htmx.js"></script>
<script src="/assets/app.js" defer></script>
</head>
<body hx-headers='${JSON.stringify({ "X-CSRF-Token": opts.csrf })}' data-page="${opts.path}">
<nav>${NAV.map(([href, label]) => html`<a href="${href}"${isCurrent(href, opts.path) ? html` aria-current="page"` : ""}>${label}</a>`)}
<form method="post" action="/logout" class="logout"><input type="hidden" name="_csrf" value="${opts.csrf}"><button>Log out</button></form></nav>
<main><h1>${opts.title}</h1>${opts.body}</main>
</body></html>`;
}

function isCurrent(href: string, path: string): boolean {
  return href === "/" ? path === "/" : path.startsWith(href);
}

export function csrfField(csrf: string): Html {
  return html`<input type="hidden" name="_csrf" value="${csrf}">`;
}

export function loginPage(error?: string): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Log in · Iris dashboard</title>
<link rel="icon" href="data:,">
<style>body{font:15px system-ui,sans-serif;display:grid;place-items:center;height:90vh}form{display:grid;gap:.6em;min-width:22em}.error{color:#b00}</style>
</head><body><form method="post" action="/login">
<h1>Iris dashboard</h1>
<label>Login token <input type="password" name="token" autocomplete="current-password" autofocus required></label>
<small>It is in the profile's <code>dashboard.token</code> file.</small>
${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<button>Log in</button></form></body></html>`;
}
