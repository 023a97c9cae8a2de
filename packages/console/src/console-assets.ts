/**
 * The console's only assets, part of the package (no CDN, nothing fetched at run time). Plain CSS
 * and a few lines of script: every screen works without JavaScript; the script only adds copy
 * buttons. Served under a content hash, so browsers may cache them for a year.
 */
const STYLES = `
:root { --fg: #1b1f24; --muted: #4b5563; --line: #d0d7de; --bg: #ffffff; --panel: #f6f8fa;
  --accent: #0a5ad4; --danger: #b42318; --ok: #116329; --warn-bg: #fff8c5; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); line-height: 1.5; }
a { color: var(--accent); }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; }
header.top { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--panel); }
header.top .brand { font-weight: 700; }
header.top form { display: inline; }
nav.main ul { list-style: none; display: flex; gap: 1.25rem; margin: 0; padding: 0; }
nav.main a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--fg); }
main { max-width: 64rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: .25rem 0 1rem; } h2 { font-size: 1.15rem; margin: 2rem 0 .75rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: .95rem; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .875rem; }
pre { background: var(--panel); border: 1px solid var(--line); padding: .75rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
form.panel, section.panel { border: 1px solid var(--line); border-radius: 6px; padding: 1rem; margin: 1rem 0; background: var(--bg); }
label { display: block; font-weight: 600; margin: .5rem 0 .25rem; }
label.inline { display: inline-flex; align-items: center; gap: .35rem; font-weight: 400; margin: .2rem 1rem .2rem 0; }
input[type=text], input[type=email], input[type=url], input[type=password], select, textarea { width: 100%; max-width: 28rem; padding: .4rem .5rem; border: 1px solid #8c959f; border-radius: 4px; font: inherit; }
fieldset { border: 1px solid var(--line); border-radius: 4px; margin: .75rem 0; }
button { font: inherit; padding: .4rem .9rem; border-radius: 4px; border: 1px solid #1f2328; background: var(--fg); color: #fff; cursor: pointer; }
button.secondary { background: var(--bg); color: var(--fg); }
button.danger { background: var(--danger); border-color: var(--danger); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin-top: .75rem; }
.inline-form { display: inline; }
.secret { background: var(--warn-bg); border: 1px solid #d4a72c; border-radius: 6px; padding: 1rem; margin: 1rem 0; }
.secret code.value { font-size: 1rem; word-break: break-all; }
.notice { border-left: 4px solid var(--ok); background: #dafbe1; padding: .5rem 1rem; margin: 1rem 0; }
.errors { border-left: 4px solid var(--danger); background: #ffebe9; padding: .5rem 1rem; margin: 1rem 0; }
.muted { color: var(--muted); }
.status-ok { color: var(--ok); font-weight: 600; } .status-bad { color: var(--danger); font-weight: 600; }
.copy { margin-left: .5rem; }
ul.filters { list-style: none; display: flex; gap: 1rem; padding: 0; }
ul.filters a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--fg); }
ol.thread { list-style: none; padding: 0; display: flex; flex-direction: column; }
ol.thread li.msg { border: 1px solid var(--line); border-radius: 6px; padding: .4rem .75rem; margin: .35rem 0; max-width: 40rem; }
ol.thread li.inbound { background: var(--panel); align-self: flex-start; }
ol.thread li.outbound { background: #ddf4ff; align-self: flex-end; }
li.msg p { margin: .2rem 0; } li.msg .content, dd, td { overflow-wrap: anywhere; }
li.msg .content { white-space: pre-wrap; }
`;

const SCRIPT = `
document.querySelectorAll("[data-copy]").forEach(function (button) {
  button.hidden = false;
  button.addEventListener("click", function () {
    var target = document.getElementById(button.getAttribute("data-copy"));
    if (!target || !navigator.clipboard) return;
    navigator.clipboard.writeText(target.textContent.trim()).then(function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = "Copy"; }, 1500);
    });
  });
});
`;

/** FNV-1a: a stable short name for the cache key (not security). */
function contentHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

export const CONSOLE_ASSETS = {
  styles: { path: `/assets/console.${contentHash(STYLES)}.css`, body: STYLES, type: "text/css; charset=utf-8" },
  script: { path: `/assets/console.${contentHash(SCRIPT)}.js`, body: SCRIPT, type: "text/javascript; charset=utf-8" },
};
