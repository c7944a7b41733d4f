import { createHash } from 'node:crypto'

// The export's only stylesheet, inlined and allowed by its hash in the page's CSP (so no other
// style, and no `style` attribute, can apply). Light and dark follow the reader's system;
// printing opens every collapsed block and drops the backgrounds.

export const EXPORT_STYLE = `
:root{color-scheme:light dark;--bg:#fcfcfb;--fg:#1f2328;--muted:#5f6873;--faint:#8b949e;--line:#e1e4e8;--panel:#f5f6f7;--user:#f0f5fb;--user-line:#c9daef;--accent:#0a5fb4;--add:#e8f5ec;--add-fg:#176f31;--del:#fcebea;--del-fg:#a8261b;--hunk:#6a4fb0;--warn:#8a5a00;--warn-bg:#fff6dc;--mono:ui-monospace,"SF Mono",Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace}
@media (prefers-color-scheme:dark){:root{--bg:#141619;--fg:#e4e7eb;--muted:#a0a9b4;--faint:#79828c;--line:#2d333b;--panel:#1b1f24;--user:#18222e;--user-line:#2c4259;--accent:#78b6f5;--add:#132a1b;--add-fg:#86dea4;--del:#311719;--del-fg:#ffaaa2;--hunk:#b9a4f5;--warn:#e3b341;--warn-bg:#2b2412}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg)}
body{margin:0 auto;max-width:58rem;padding:2.5rem 1.5rem 4rem;font:15px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
a{color:var(--accent);text-decoration:none}
a:hover{text-decoration:underline}
h1{font-size:1.6rem;line-height:1.3;margin:.2rem 0 1rem;font-weight:650;overflow-wrap:anywhere}
h2{font-size:1.1rem;margin:0;font-weight:650}
h3{font-size:.8rem;margin:1.4rem 0 .5rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);font-weight:600}
code,pre,.mono{font-family:var(--mono);font-size:12.5px}
pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.5}
.kicker{font-size:.78rem;text-transform:uppercase;letter-spacing:.08em;color:var(--muted);margin:0}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1.2rem;margin:0 0 1.5rem;padding:1rem 1.2rem;border:1px solid var(--line);border-radius:10px;background:var(--panel);font-size:.9rem}
.facts dt{color:var(--muted)}
.facts dd{margin:0;overflow-wrap:anywhere}
.crumbs span+span::before{content:" › ";color:var(--faint)}
.crumbs .here{font-weight:600}
.note{color:var(--muted);font-size:.85rem}
nav.toc{margin:0 0 2.5rem}
nav.toc summary{cursor:pointer;color:var(--muted);font-size:.85rem;font-weight:600;text-transform:uppercase;letter-spacing:.06em}
nav.toc ol{list-style:none;margin:.6rem 0 0;padding:0;columns:1}
nav.toc li{display:flex;gap:.7rem;align-items:baseline;padding:.15rem 0;border-bottom:1px dashed var(--line);font-size:.9rem}
nav.toc li a{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:var(--fg)}
nav.toc .n{color:var(--faint);font-variant-numeric:tabular-nums;min-width:2.2rem;text-align:right}
nav.toc .files{color:var(--muted);font-size:.8rem;white-space:nowrap}
nav.index li.depth-1{padding-left:1.2rem}
nav.index li.depth-2{padding-left:2.4rem}
nav.index li.depth-3{padding-left:3.6rem}
nav.index li.depth-4{padding-left:4.8rem}
nav.index li.depth-5{padding-left:6rem}
nav.index li.depth-6{padding-left:7.2rem}
article.session{margin:0 0 3rem;padding-top:2rem;border-top:3px double var(--line)}
article.session>header h1{font-size:1.35rem}
section.turn{margin:0 0 2.2rem;padding-top:1.2rem;border-top:1px solid var(--line)}
.turn>header{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:baseline;margin-bottom:.9rem}
.turn>header a{color:var(--fg)}
.when,.usage{color:var(--faint);font-size:.8rem;font-variant-numeric:tabular-nums}
.badge{font-size:.72rem;padding:.05rem .45rem;border-radius:999px;border:1px solid var(--line);color:var(--muted)}
.badge.warn{color:var(--warn);background:var(--warn-bg);border-color:transparent}
.m{margin:0 0 .8rem}
.who{font-size:.78rem;font-weight:600;color:var(--muted);margin-bottom:.2rem;display:flex;gap:.6rem;align-items:baseline}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
.md{overflow-wrap:anywhere}
.md>:first-child{margin-top:0}
.md>:last-child{margin-bottom:0}
.md p,.md ul,.md ol,.md blockquote,.md table{margin:.5rem 0}
.md h1,.md h2,.md h3,.md h4,.md h5,.md h6{font-size:1rem;margin:.9rem 0 .4rem;text-transform:none;letter-spacing:0;color:var(--fg)}
.md pre{padding:.55rem .75rem;border:1px solid var(--line);border-radius:6px;background:var(--panel);white-space:pre-wrap}
.md :not(pre)>code{padding:.05rem .3rem;border-radius:4px;background:var(--panel)}
.md blockquote{padding-left:.9rem;border-left:3px solid var(--line);color:var(--muted)}
.md table{border-collapse:collapse}
.md th,.md td{border:1px solid var(--line);padding:.2rem .6rem}
.md ul,.md ol{padding-left:1.6rem}
.m.user{background:var(--user);border:1px solid var(--user-line);border-radius:10px;padding:.7rem .95rem}
.m.system,.m.compaction{border-left:3px solid var(--line);padding:.2rem 0 .2rem .9rem;color:var(--muted)}
.m.compaction{border-left-color:var(--hunk)}
.m.out .text{opacity:.72}
details.m,details.file{border:1px solid var(--line);border-radius:8px;background:var(--panel)}
details>summary{cursor:pointer;padding:.4rem .75rem;list-style-position:inside;overflow-wrap:anywhere}
details.m>summary{font-size:.86rem;color:var(--muted)}
details[open]>summary{border-bottom:1px solid var(--line)}
details .body{padding:.6rem .8rem;background:var(--bg);border-radius:0 0 8px 8px}
.tn{font-weight:600;color:var(--fg)}
.gist{color:var(--muted);margin-left:.4rem}
.err{color:var(--del-fg);font-weight:600;margin-left:.5rem}
.label{font-size:.72rem;text-transform:uppercase;letter-spacing:.06em;color:var(--faint);margin:.5rem 0 .25rem}
.label:first-child{margin-top:0}
dl.fields{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:.25rem .9rem}
dl.fields dt{font-family:var(--mono);font-size:12px;color:var(--muted)}
dl.fields dd{margin:0;min-width:0}
.cut{color:var(--warn);font-size:.8rem;margin-top:.4rem}
.badge.ok{color:var(--add-fg);border-color:var(--add-fg)}
details.card .gist{font-family:inherit}
.question+.question{margin-top:.8rem;padding-top:.6rem;border-top:1px dashed var(--line)}
ul.opts,ul.todos{list-style:none;margin:.4rem 0;padding:0}
li.opt{padding:.1rem .5rem;border-radius:6px}
li.opt.chosen{background:var(--user);border:1px solid var(--user-line);font-weight:600}
.answer .label{display:inline;margin-right:.3rem}
li.todo .mark{display:inline-block;width:1.3rem;color:var(--faint)}
li.todo.in_progress{font-weight:600}
li.todo.completed{color:var(--muted);text-decoration:line-through}
blockquote.reply{margin:.3rem 0 0;padding-left:.9rem;border-left:3px solid var(--line);white-space:pre-wrap}
.files .op{display:inline-block;min-width:6.8rem;padding-right:.6rem;font-size:.75rem;color:var(--muted)}
.files .counts{margin-left:.6rem;font-size:.8rem;color:var(--muted);font-variant-numeric:tabular-nums}
.files details.file{margin:0 0 .45rem}
.files details.file>summary code{color:var(--fg)}
pre.diff{padding:.5rem 0;background:var(--bg);border-radius:0 0 8px 8px}
pre.diff>*{display:block;padding:0 .8rem}
pre.diff ins{text-decoration:none;background:var(--add);color:var(--add-fg)}
pre.diff del{text-decoration:none;background:var(--del);color:var(--del-fg)}
pre.diff span.h{color:var(--hunk);background:var(--panel)}
.empty{padding:.5rem .8rem;color:var(--muted);font-size:.85rem;background:var(--bg);border-radius:0 0 8px 8px}
footer{margin-top:3rem;padding-top:1rem;border-top:1px solid var(--line);color:var(--faint);font-size:.8rem}
@media print{
:root{--bg:#fff;--panel:#fff;--user:#fff;--add:#fff;--del:#fff;--warn-bg:#fff;color-scheme:light}
body{max-width:none;padding:0;font-size:11pt}
details::details-content{content-visibility:visible;display:block}
details>summary{list-style:none}
nav.toc{break-after:page}
section.turn,details{break-inside:auto}
.turn>header,summary{break-after:avoid}
pre.diff ins{text-decoration:underline dotted}
pre.diff del{text-decoration:line-through}
a{color:inherit}
}
@page{margin:16mm 14mm}
`.trim()

/** The CSP source that allows exactly this stylesheet. */
export function styleHashSource(style: string = EXPORT_STYLE): string {
  return `'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`
}
