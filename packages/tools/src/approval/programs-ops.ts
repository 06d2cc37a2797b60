// The allow-list's operations tools: cloud and cluster CLIs by verb, services, databases and the
// network. Their read verbs (list, describe, get, status) run unasked; every other verb asks.
import { type Finding, finding, opt, optValues, type ProgramRule, plain } from "./program-rule.js";

type Check = (args: readonly string[]) => Finding | string | undefined;

const READ_VERB =
  /^(?:ls|list|list-.+|describe|describe-.+|get|get-.+|show|info|status|version|help|view|explain|logs|top|api-resources|api-versions|current-context|get-contexts|cluster-info|whoami|plan|validate|output|providers|graph|search)$/;
const CHANGE_VERB =
  /^(?:rm|del|delete|remove|destroy|purge|terminate|reset|drop|wipe|clear|erase|kill|stop|uninstall|revoke|detach|disable|apply|put|cp|mv|sync|create|update|set|patch|replace|scale|deploy|run|exec|ssh|scp|import|attach|rollout|drain|cordon|taint|edit|label|annotate|expose|login|logout|configure|auth|secrets?|credentials?|print-access-token|get-login-password|token|port-forward|proxy)(?:-.*)?$/;

/** A cloud CLI call is harmless when one of its words is a read verb and none changes anything. */
/** CLIs whose first word is the verb (`kubectl get`), and those whose second is (`gh pr list`). */
const VERB_FIRST = new Set(["kubectl", "oc", "helm", "terraform", "tofu", "pulumi", "eksctl"]);
const VERB_SECOND = new Set(["gh", "glab"]);

/** A cloud call that prints a secret, a password or a token (`secretsmanager get-secret-value`, `--with-decryption`). */
const SECRET_READ =
  /secret|password|passw|token|credential|decrypt|access-key|private-key|kubeconfig|get-login|\bauth\b|api-key|apikey|keyvault|vault/i;

function cloudVerbs(tool: string): Check {
  return (a) => {
    const secret = a.find((w) => SECRET_READ.test(w));
    if (secret !== undefined) return finding("reads_credential", `${tool} … ${secret}`);
    const words = plain(a, [
      "--profile",
      "--region",
      "--project",
      "-n",
      "--namespace",
      "--context",
      "-o",
      "--output",
      "--format",
      "--query",
      "--filter",
      "-l",
      "--selector",
    ]);
    const fixed = VERB_FIRST.has(tool) ? words[0] : VERB_SECOND.has(tool) ? words[1] : undefined;
    if (fixed !== undefined || VERB_FIRST.has(tool) || VERB_SECOND.has(tool))
      return fixed !== undefined &&
        READ_VERB.test(fixed) &&
        !CHANGE_VERB.test(fixed) &&
        !(tool === "gh" && words[0] === "api")
        ? undefined
        : finding("cloud_change", `${tool} ${words.slice(0, 3).join(" ")}`);
    if (words.some((w) => CHANGE_VERB.test(w)))
      return finding("cloud_change", `${tool} ${words.slice(0, 3).join(" ")}`);
    if (words.some((w) => READ_VERB.test(w)) || opt(a, "", "--version")) return undefined;
    return finding("cloud_change", `${tool} ${words.slice(0, 3).join(" ")}`);
  };
}

/** `namesOnly`: its arguments name resources, not files to read. */
function rule(reason: string, unsafe?: Check, namesOnly = true): ProgramRule {
  return { reason, namesOnly, ...(unsafe ? { unsafe } : {}) };
}

const CLOUD = "a cloud or cluster CLI used only with verbs that read (list, describe, get, status)";

const SQL_READ =
  /^\s*(?:select|show|explain|describe|desc|with|values|table|\\d\w*|\\l|\\dt|\.tables|\.schema)\b/i;
const SQL_CHANGE =
  /\b(?:insert|update|delete|drop|alter|create|truncate|grant|revoke|attach|detach|copy|vacuum|reindex|replace|merge|call|do|load_file|outfile|dumpfile|lo_export|lo_import|pg_read_file|pg_write_file|set)\b|\\!|\\o|\\copy|\\g\b|\\w|^\s*\.(?:shell|system|output|once|import|save|backup|restore|load)/i;

/** A database client given only reading SQL on its command line. */
function sqlClient(inline: (a: readonly string[]) => string[]): Check {
  return (a) => {
    const statements = inline(a)
      .flatMap((s) => s.split(";"))
      .filter((s) => s.trim() !== "");
    if (opt(a, "f", "--file") || statements.length === 0)
      return "a database client reading commands from a file or its input";
    return statements.every((s) => SQL_READ.test(s) && !SQL_CHANGE.test(s))
      ? undefined
      : "sends SQL that may change data";
  };
}

const REDIS_READ =
  /^(?:get|mget|keys|scan|info|ping|ttl|pttl|type|exists|hget|hgetall|hkeys|hlen|llen|lrange|scard|smembers|zrange|zcard|dbsize|strlen|memory|client|--version|time|lastsave)$/i;

export const OPS_PROGRAMS: Record<string, ProgramRule> = {
  ...Object.fromEntries(
    "aws gcloud gsutil az doctl linode-cli oci ibmcloud flyctl fly heroku vercel netlify wrangler firebase kubectl oc helm terraform tofu pulumi eksctl gh glab"
      .split(" ")
      .map((n) => [n, rule(CLOUD, cloudVerbs(n))]),
  ),
  systemctl: rule("shows service state", (a) => {
    const verb = plain(a)[0] ?? "list-units";
    return /^(?:status|show|cat|list-.+|is-.+|help|--version)$/.test(verb)
      ? undefined
      : finding("service_change", `systemctl ${verb}`);
  }),
  service: rule("shows a service's state", (a) =>
    a[1] === "status" || opt(a, "", "--status-all")
      ? undefined
      : finding("service_change", `service ${a.join(" ")}`),
  ),
  journalctl: rule("reads the system journal", (a) =>
    opt(
      a,
      "",
      "--vacuum-size",
      "--vacuum-time",
      "--vacuum-files",
      "--rotate",
      "--flush",
      "--relinquish-var",
      "--setup-keys",
    )
      ? finding("service_change", "journalctl deletes or rotates logs")
      : undefined,
  ),
  loginctl: rule("shows sessions", (a) =>
    /^(?:list-.+|show-.+|session-status|user-status|seat-status)?$/.test(plain(a)[0] ?? "")
      ? undefined
      : finding("service_change", `loginctl ${plain(a)[0]}`),
  ),
  crontab: rule("lists the user's scheduled jobs", (a) =>
    opt(a, "l") && plain(a).length === 0 && !opt(a, "r", "e") ? undefined : finding("crontab_replace"),
  ),
  psql: rule(
    "a database client given only reading SQL",
    sqlClient((a) => optValues(a, "c", "--command")),
    false,
  ),
  mysql: rule(
    "a database client given only reading SQL",
    sqlClient((a) => optValues(a, "e", "--execute")),
    false,
  ),
  mariadb: rule(
    "a database client given only reading SQL",
    sqlClient((a) => optValues(a, "e", "--execute")),
    false,
  ),
  sqlite3: rule(
    "a database client given only reading SQL",
    sqlClient((a) => plain(a, ["-cmd", "-separator"]).slice(1)),
    false,
  ),
  "redis-cli": rule(
    "reads keys and server facts",
    (a) => {
      const cmd = plain(a, ["-h", "-p", "-a", "-n", "-u", "--user", "--pass"])[0];
      return cmd !== undefined && REDIS_READ.test(cmd)
        ? undefined
        : "a redis command that may change or wipe data";
    },
    false,
  ),
  curl: {
    reason:
      "fetches a URL to its output; output files are judged by where they are, uploads of files are asked about",
    writes: (a) => [
      ...optValues(a, "o", "--output"),
      ...optValues(a, "D", "--dump-header"),
      ...optValues(a, "c", "--cookie-jar"),
      ...optValues(a, "", "--trace", "--trace-ascii", "--stderr", "--libcurl"),
      ...(opt(a, "OJ", "--remote-name", "--remote-name-all") ? ["."] : []),
    ],
    unsafe: (a) => {
      if (opt(a, "KT", "--config", "--upload-file"))
        return finding("network_tool", "curl -K/-T reads a config or uploads a file");
      const data = [
        ...optValues(a, "d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--json"),
        ...optValues(a, "F", "--form"),
      ];
      return data.some((d) => /(?:^|=)[@<]/.test(d))
        ? finding("network_tool", "curl sends a file's contents")
        : undefined;
    },
  },
  wget: {
    reason: "downloads a URL into a file judged by where it is",
    writes: (a) => {
      const out = [
        ...optValues(a, "O", "--output-document"),
        ...optValues(a, "o", "--output-file"),
        ...optValues(a, "P", "--directory-prefix"),
      ];
      return out.length ? out : ["."];
    },
    unsafe: (a) =>
      opt(a, "ei", "--execute", "--post-file", "--body-file", "--input-file", "--use-askpass")
        ? finding("network_tool", "wget runs a wgetrc command or sends a file")
        : undefined,
  },
  ...Object.fromEntries(
    "ping ping6 dig nslookup host traceroute tracepath whois"
      .split(" ")
      .map((n) => [n, rule("asks the network a question and prints the answer")]),
  ),
  ss: rule("lists sockets", (a) => (opt(a, "K", "--kill") ? "ss -K closes connections" : undefined)),
  netstat: rule("lists sockets"),
  ip: rule("shows addresses and routes", (a) =>
    plain(a)
      .slice(1)
      .every((w) => /^(?:show|list|ls|get|lst|sh)$/.test(w)) || plain(a).length <= 1
      ? undefined
      : "ip changes network settings",
  ),
  ssh: {
    reason: "runs a command on another machine; that command is judged like one typed here",
    namesOnly: true,
    unsafe: (a) => {
      if (
        a.some(
          (x, i) =>
            /^-o/.test(x) &&
            /ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand|ProxyUseFdpass/i.test(
              x.length > 2 ? x : (a[i + 1] ?? ""),
            ),
        )
      )
        return "ssh -o runs a local command";
      if (opt(a, "NfLRDWw")) return finding("network_tool", "ssh opens a tunnel or forwards ports");
      return plain(a, ["-i", "-p", "-l", "-F", "-J", "-o", "-E", "-b", "-c", "-m", "-O", "-Q", "-S", "-e"])
        .length >= 2
        ? undefined
        : "ssh without a command opens a shell";
    },
  },
  getfacl: rule("prints ACLs"),
  // Password managers, secret stores and decrypters: printing secrets is what they are for.
  ...Object.fromEntries(
    "pass gopass op bw lpass vault secret-tool security keyring kwallet-query aws-vault chamber doppler infisical sops age gpg gpg2 ansible-vault"
      .split(" ")
      .map((n) => [
        n,
        rule("a secret store; only its version or help runs unasked", (a) =>
          a.length > 0 && a.every((x) => /^(?:--version|-V|--help|-h)$/.test(x))
            ? undefined
            : finding("reads_credential", `${n} prints or decrypts secrets`),
        ),
      ]),
  ),
  // Iris itself: changing its configuration is self-modification, asked about in every mode.
  iris: {
    reason: "Iris's own read-only commands (sessions, usage, doctor)",
    namesOnly: true,
    unsafe: (a) => {
      const [sub, verb] = plain(a, ["--profile", "--provider", "--model"]);
      if (sub === "config" && verb !== "get")
        return {
          key: "self_modification",
          description: `changes Iris's own configuration (iris config ${verb ?? ""})`,
        };
      if (
        sub === "setup" ||
        (sub === "skills" && verb === "install") ||
        (sub === "pairing" && verb !== "list") ||
        sub === "gateway"
      )
        return {
          key: "self_modification",
          description: `changes Iris's own configuration (iris ${sub} ${verb ?? ""})`,
        };
      if (
        ["sessions", "usage", "context", "models", "doctor", "--version", "--help"].includes(sub ?? "") &&
        !opt(a, "", "--repair") &&
        verb !== "delete"
      )
        return undefined;
      return finding("runs_code", `iris ${sub ?? ""} starts another agent or changes its state`);
    },
  },
  chown: { reason: "changes ownership", unsafe: () => finding("permission_change", "chown") },
  chgrp: { reason: "changes ownership", unsafe: () => finding("permission_change", "chgrp") },
  setfacl: { reason: "changes ACLs", unsafe: () => finding("permission_change", "setfacl") },
  chattr: { reason: "changes file attributes", unsafe: () => finding("permission_change", "chattr") },
};
