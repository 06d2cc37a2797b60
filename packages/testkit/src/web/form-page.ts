// The browser tests' form: an email field, a Korean-labelled password, a checkbox, a language
// select, a button rendered 300 ms after load that opens an alert, and a submit that shows what
// was sent on a result page.
export const FORM_PAGE = `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><title>가입 양식</title></head>
<body>
<h1>회원 가입</h1>
<form action="/form-done" method="get">
  <label>Email <input type="email" name="email"></label>
  <label>비밀번호 <input type="password" name="pw"></label>
  <label><input type="checkbox" name="terms" value="yes"> 약관에 동의합니다</label>
  <label>언어 <select name="lang"><option value="en">English</option><option value="ko">한국어</option></select></label>
  <div id="late"></div>
  <button type="submit">가입하기</button>
</form>
<script>
  console.log("form ready");
  setTimeout(() => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "Late button";
    b.onclick = () => { alert("late clicked"); document.title = "after alert"; };
    document.getElementById("late").appendChild(b);
  }, 300);
</script>
</body></html>`;

export function formDonePage(query: URLSearchParams): string {
  const rows = [...query.entries()].map(([k, v]) => `<li>${k}=${v.replace(/</g, "&lt;")}</li>`).join("");
  return `<!doctype html><html><head><meta charset="utf-8"><title>Sent</title></head><body><h1>Sent</h1><ul>${rows}</ul></body></html>`;
}
