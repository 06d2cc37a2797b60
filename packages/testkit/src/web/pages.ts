// The local test site's pages: real-looking HTML with navigation, ads, a sidebar, a table, code,
// Korean text (UTF-8 and EUC-KR), a PDF. Search fakes serve the same documents as their corpus.
import { textPdf } from "./pdf.js";

export interface SitePage {
  path: string;
  title: string;
  /** Words the search fakes match against (and return as the snippet's source). */
  text: string;
  type: string;
  body: Buffer;
}

const chrome = (inner: string, title: string, lang = "en") => `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title>
<style>.ad{border:1px solid red}</style><script>window.tracker = "track-me-script";</script></head>
<body>
<header><nav class="site-nav"><a href="/">Home</a> | <a href="/news/seoul-weather">News</a> | <a href="/about">About us NAVLINK</a></nav></header>
<div class="ad banner" id="ad-top"><a href="https://ads.example/click">BUY NOW ADVERT</a></div>
<main>${inner}</main>
<aside class="sidebar"><h3>Popular SIDEBAR</h3><ul><li><a href="/x">Other story</a></li></ul></aside>
<footer>Copyright FOOTER <script>console.log("footer-script")</script></footer>
</body></html>`;

const seoul = chrome(
  `<article>
<h1>서울 날씨: 오늘은 춥습니다</h1>
<p class="byline">By <span class="author">김민수</span></p>
<p>서울의 오늘 아침 기온은 영하 5도로 떨어졌습니다. 기상청은 주말까지 추위가 이어질 것이라고 밝혔습니다. 시민들은 두꺼운 외투를 입고 출근길에 나섰습니다.</p>
<p>한강 주변에는 얼음이 얼기 시작했고, 일부 지역에는 눈이 내렸습니다. 전문가들은 수도관 동파에 주의하라고 당부했습니다. <a href="/news/forecast">자세한 예보</a>를 확인하세요.</p>
<table><thead><tr><th>도시</th><th>최저</th><th>최고</th></tr></thead>
<tbody><tr><td>서울</td><td>-5</td><td>2</td></tr><tr><td>부산</td><td>1</td><td>8</td></tr></tbody></table>
<p>The weather service publishes its data as JSON; a client reads it like this:</p>
<pre><code class="language-js">const res = await fetch("/api/weather?city=seoul");
const { low, high } = await res.json();</code></pre>
<p>기상청 관계자는 "다음 주에는 기온이 점차 오를 것"이라고 말했습니다. 그러나 밤에는 여전히 영하권에 머물 것으로 보입니다.</p>
</article>`,
  "서울 날씨 - Iris News",
  "ko",
);

const guide = chrome(
  `<article><h1>Node streams guide</h1>
<p>Streams let a program handle data piece by piece instead of loading it all at once. This guide shows readable, writable and transform streams with examples you can run.</p>
<p>A readable stream emits chunks; a writable stream accepts them. Backpressure keeps a fast producer from overwhelming a slow consumer, which matters for files and sockets alike.</p>
<pre><code>import { pipeline } from "node:stream/promises";
await pipeline(source, transform, destination);</code></pre>
<table><tr><th>Kind</th><th>Example</th></tr><tr><td>Readable</td><td>fs.createReadStream</td></tr><tr><td>Writable</td><td>fs.createWriteStream</td></tr></table>
<p>Read the <a href="/docs/report.pdf">stream report (PDF)</a> for measurements.</p>
</article>`,
  "Node streams guide",
);

/** "안녕하세요" and "서울" in EUC-KR bytes, in a page that declares its charset only in <meta>. */
const eucKr = Buffer.concat([
  Buffer.from(
    '<!doctype html><html lang="ko"><head><meta http-equiv="Content-Type" content="text/html; charset=euc-kr"><title>EUC-KR page</title></head><body><article><h1>Legacy encoding</h1><p>',
    "latin1",
  ),
  Buffer.from("bec8b3e7c7cfbcbcbfe420bcadbfef", "hex"),
  Buffer.from(
    " legacy Korean portal text that is long enough for the reader to keep it as the article body of this page.</p></article></body></html>",
    "latin1",
  ),
]);

const pdf = textPdf("Stream report", [
  "Stream report 2026",
  "Throughput of pipeline() was 1.2 GB per second.",
  "Backpressure kept memory under 64 MB.",
]);

export function sitePages(): SitePage[] {
  const html = (path: string, title: string, text: string, body: string): SitePage => ({
    path,
    title,
    text,
    type: "text/html; charset=utf-8",
    body: Buffer.from(body),
  });
  return [
    html(
      "/news/seoul-weather",
      "서울 날씨 - Iris News",
      "서울 날씨 오늘 춥습니다 기온 영하 weather seoul cold",
      seoul,
    ),
    html(
      "/docs/streams",
      "Node streams guide",
      "node streams guide readable writable backpressure pipeline",
      guide,
    ),
    {
      path: "/legacy/euc-kr",
      title: "EUC-KR page",
      text: "legacy encoding korean 안녕하세요 서울",
      type: "text/html",
      body: eucKr,
    },
    {
      path: "/docs/report.pdf",
      title: "Stream report",
      text: "stream report pdf throughput pipeline backpressure",
      type: "application/pdf",
      body: pdf,
    },
  ];
}
