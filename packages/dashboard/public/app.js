// The dashboard's only script (no build step): draws the uPlot charts from the JSON block each
// chart names, and runs the live log tail over Server-Sent Events. Pages mark what is ready with
// data-* attributes (data-chart="ready", data-lines) so tests wait on facts, not on time.
(() => {
  const compact = (v) =>
    Math.abs(v) >= 1e6
      ? `${(v / 1e6).toFixed(1)}M`
      : Math.abs(v) >= 1e3
        ? `${(v / 1e3).toFixed(1)}k`
        : String(+v.toFixed(4));

  function drawCharts(root) {
    for (const el of root.querySelectorAll("[data-chart-src]")) {
      if (el.dataset.chart === "ready") continue;
      const src = document.getElementById(el.dataset.chartSrc);
      if (!src || typeof uPlot === "undefined") continue;
      const data = JSON.parse(src.textContent);
      const money = data.unit === "usd";
      const opts = {
        width: Math.max(320, el.clientWidth - 16),
        height: 280,
        scales: { x: { time: true } },
        series: [{}].concat(
          data.series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            dash: s.dash ? [6, 4] : undefined,
            value: (_u, v) => (v == null ? "–" : money ? `$${v.toFixed(4)}` : v.toLocaleString("en-US")),
          })),
        ),
        // An explicit size: uPlot's default clips large numbers on the left.
        axes: [
          { size: 40 },
          { size: 80, values: (_u, vals) => vals.map((v) => (money ? `$${compact(v)}` : compact(v))) },
        ],
      };
      new uPlot(opts, [data.x].concat(data.series.map((s) => s.values)), el);
      el.dataset.chart = "ready";
    }
  }

  function startLogTail() {
    const box = document.getElementById("log-tail");
    if (!box) return;
    const form = document.getElementById("log-filters");
    let source;
    const connect = () => {
      if (source) source.close();
      box.textContent = "";
      box.dataset.lines = "0";
      const query = new URLSearchParams(new FormData(form)).toString();
      box.dataset.stream = "connecting";
      source = new EventSource(`/logs/stream?${query}`);
      source.onmessage = (e) => {
        const rec = JSON.parse(e.data);
        const line = document.createElement("div");
        line.className = rec.level;
        line.textContent = `${rec.time} ${rec.level.padEnd(5)} ${rec.component ?? "-"}: ${rec.msg}${rec.rest ? ` ${rec.rest}` : ""}`;
        box.appendChild(line);
        while (box.childElementCount > 2000) box.firstElementChild.remove();
        box.dataset.lines = String(box.childElementCount);
        box.scrollTop = box.scrollHeight;
      };
      source.addEventListener("ready", () => {
        box.dataset.stream = "open";
      });
    };
    form.addEventListener("change", connect);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      connect();
    });
    connect();
  }

  drawCharts(document);
  startLogTail();
  document.body.addEventListener("htmx:afterSwap", (e) => drawCharts(e.target));
  document.body.dataset.ready = "1";
})();
