// report.html's inline style and script. Neither holds run data: the page stays one self-contained
// file, and the only <script> element cannot carry anything a target sent.

export const CSS = `
:root{--fg:#1c2330;--muted:#5d6b7e;--line:#dfe4ea;--bg:#f5f7fa;--card:#fff;--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--error:#8250df;--error-bg:#fbefff;--warn:#9a6700;--warn-bg:#fff8c5;--skip:#6e7781;--skip-bg:#eef1f4;--nc:#afb8c1;--accent:#0969da;--mono:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace}
*{box-sizing:border-box}
html{scroll-behavior:smooth}
body{margin:0;font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
code,pre{font-family:var(--mono);font-size:12.5px}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
.wrap{max-width:1180px;margin:0 auto;padding:0 24px}
.muted{color:var(--muted)}
header.top{background:#1f2937;color:#f3f4f6;padding:22px 0 18px;border-bottom:6px solid var(--nc)}
header.top.v-pass{border-bottom-color:var(--pass)}header.top.v-fail{border-bottom-color:var(--fail)}header.top.v-error{border-bottom-color:var(--error)}header.top.v-incomplete{border-bottom-color:var(--warn)}
.brand{font-size:12px;letter-spacing:.08em;text-transform:uppercase;color:#9ca3af}.brand span{color:#d1d5db}
header h1{margin:4px 0 6px;font-size:24px;font-weight:600}
.headline{font-size:16px;font-weight:500;margin-bottom:14px;display:flex;align-items:center;gap:8px}.hl-dot{width:12px;height:12px;border-radius:50%;background:var(--nc);flex:none}.v-pass .hl-dot{background:#2da44e}.v-fail .hl-dot{background:#fa4549}.v-error .hl-dot{background:#a475f9}.v-incomplete .hl-dot{background:#d4a72c}
dl.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(440px,1fr));gap:6px 32px;margin:0}
dl.meta div{display:flex;gap:10px;min-width:0}dl.meta dt{color:#9ca3af;width:64px;flex:none}dl.meta dd{margin:0;min-width:0;overflow-wrap:anywhere}
dl.meta code{color:#fff;background:rgba(255,255,255,.08);padding:0 4px;border-radius:3px}dl.meta .muted{color:#9ca3af}.sha{font-size:11.5px;word-break:break-all}
.tag{display:inline-block;font-size:11px;padding:0 6px;border-radius:10px;background:rgba(255,255,255,.15)}.tag-bad{background:var(--fail);color:#fff}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(124px,1fr));gap:10px;margin:20px 0}
.tile{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px;border-top:4px solid var(--nc)}
.t-value{font-size:26px;font-weight:600;line-height:1.2}.t-value small{font-size:14px;color:var(--muted);font-weight:400}
.t-label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}.t-sub{font-size:12px;color:var(--muted);margin-top:4px}
.t-verdict.t-pass{border-top-color:var(--pass)}.t-verdict.t-pass .t-value{color:var(--pass)}.t-verdict.t-fail{border-top-color:var(--fail)}.t-verdict.t-fail .t-value{color:var(--fail)}.t-verdict.t-error .t-value{color:var(--error)}.t-verdict.t-error{border-top-color:var(--error)}.t-verdict.t-incomplete{border-top-color:var(--warn)}
.t-pass{border-top-color:var(--pass)}.t-fail{border-top-color:var(--fail)}.t-fail .t-value{color:var(--fail)}.t-error{border-top-color:var(--error)}.t-error .t-value{color:var(--error)}.t-warn{border-top-color:#d4a72c}.t-warn .t-value{color:var(--warn)}.t-skip{border-top-color:var(--skip)}.t-cover{border-top-color:var(--accent)}.t-mutation{border-top-color:#bf3989}.t-mutation .t-value{color:#bf3989}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin:16px 0}
details.card>summary{cursor:pointer;font-weight:600}
h2{font-size:18px;margin:28px 0 12px;font-weight:600}.card h2{margin-top:0}
.sec-count{font-size:12px;color:var(--muted);font-weight:400;margin-left:8px}
.root-cause{border:1px solid var(--line);border-left:4px solid var(--fail);border-radius:8px;padding:10px 12px;margin:0 0 14px}.rc-head{display:flex;flex-wrap:wrap;gap:8px;align-items:baseline;margin-bottom:6px}.rc-label{font-weight:700}.rc-cause{white-space:pre-wrap;word-break:break-word}details.rc-checks>summary{cursor:pointer;color:var(--accent);font-size:13px;margin:4px 0 8px}
.g-note{font-size:13px;color:var(--muted);margin:-4px 0 10px}.g-count{font-size:12px;font-weight:600;background:var(--fail-bg);color:var(--fail);border-radius:10px;padding:1px 8px}.nonblocking .g-count{background:var(--warn-bg);color:var(--warn)}
.f-endpoints{font-size:12.5px;color:var(--muted);margin:4px 0;display:flex;flex-wrap:wrap;gap:4px 6px;align-items:baseline}.f-endpoints code{background:#f6f8fa;border:1px solid var(--line);border-radius:4px;padding:0 4px;color:var(--fg)}
details.g-rest>summary{cursor:pointer;color:var(--accent);font-size:13px;margin:8px 0 4px}.g-item{border-top:1px solid var(--line);padding:8px 0 4px}
.env-note{font-size:13px;color:var(--muted);margin:-4px 0 10px}.failures .all-good{background:var(--pass-bg);color:var(--pass);border-radius:8px;padding:12px 16px;margin:0}
.failure{border-left:4px solid var(--fail)}.failure.nonblocking{border-left-color:#d4a72c}.failure[data-verdict=error]{border-left-color:var(--error)}
.f-head{display:flex;align-items:center;gap:8px;flex-wrap:wrap}.check-id{font-weight:600;overflow-wrap:anywhere}.dur{margin-left:auto;color:var(--muted);font-size:12px}
.f-title{margin:6px 0 2px}.f-clauses{font-size:12.5px;color:var(--muted)}
pre.f-msg,pre.c-msg{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--fail-bg);border-radius:6px;padding:8px 12px;margin:8px 0;font-size:13px;color:#82071e}
li.v-skip pre.c-msg{background:var(--skip-bg);color:#424a53}li.v-error pre.c-msg{background:var(--error-bg);color:#512a97}.nonblocking pre.f-msg,li.nb.v-fail pre.c-msg{background:var(--warn-bg);color:#6a4a00}
[data-verdict=error] pre.f-msg{background:var(--error-bg);color:#512a97}
details.evidence>summary{cursor:pointer;color:var(--muted);font-size:13px;margin:6px 0}
.exchange{border:1px solid var(--line);border-radius:6px;margin:8px 0;overflow:hidden}
.x-line{background:#f6f8fa;padding:6px 10px;border-bottom:1px solid var(--line);display:flex;gap:8px;align-items:baseline;flex-wrap:wrap;font-family:var(--mono);font-size:12.5px}
.method{font-weight:700}.url{overflow-wrap:anywhere}.arrow{color:var(--muted)}.x-meta{margin-left:auto;color:var(--muted);font-size:11.5px}
.status{font-weight:700;padding:0 6px;border-radius:4px}.s-2xx{background:var(--pass-bg);color:var(--pass)}.s-3xx{background:#ddf4ff;color:var(--accent)}.s-4xx{background:var(--warn-bg);color:var(--warn)}.s-5xx,.s-err{background:var(--fail-bg);color:var(--fail)}
.x-grid{display:grid;grid-template-columns:1fr 1fr;gap:0}.x-grid>div{min-width:0}.x-grid>div+div{border-left:1px solid var(--line)}
@media (max-width:900px){.x-grid{grid-template-columns:1fr}.x-grid>div+div{border-left:0;border-top:1px solid var(--line)}}
.x-h{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);padding:6px 10px 0}
pre.msg{margin:0;padding:6px 10px 10px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:420px;overflow:auto}
.m-first{font-weight:700}.m-headers{color:var(--muted)}
.curl{position:relative;border-top:1px solid var(--line);background:#0d1117}
.curl pre{margin:0;padding:8px 70px 8px 10px;color:#e6edf3;white-space:pre-wrap;overflow-wrap:anywhere}
li .curl{border:1px solid var(--line);border-radius:6px;margin:6px 0}
button.copy{position:absolute;top:6px;right:6px;font-size:11px;padding:2px 8px;border-radius:4px;border:1px solid #30363d;background:#21262d;color:#e6edf3;cursor:pointer}button.copy:hover{background:#30363d}
.tbl{width:100%;border-collapse:collapse;font-size:13px}.tbl th.num{text-align:right}.tbl th{text-align:left;color:var(--muted);font-weight:500;border-bottom:1px solid var(--line);padding:6px 8px}.tbl td{border-bottom:1px solid #eef1f4;padding:5px 8px;vertical-align:top}.num{text-align:right;font-variant-numeric:tabular-nums}.n-bad{color:var(--fail);font-weight:600}
.bar{display:inline-flex;width:160px;height:8px;border-radius:4px;overflow:hidden;background:#eef1f4;vertical-align:middle}.bar span{display:block;height:100%}
h2 .bar{margin-left:12px;width:120px}
.b-pass{background:var(--pass)}.b-fail{background:var(--fail)}.b-error{background:var(--error)}.b-warn{background:#d4a72c}.b-skip{background:#8c959f}.b-not-covered{background:repeating-linear-gradient(45deg,#d0d7de 0 3px,#eef1f4 3px 6px)}
.legend{display:flex;gap:14px;flex-wrap:wrap;margin-top:10px;font-size:12px;color:var(--muted)}.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.toolbar{position:sticky;top:0;z-index:5;background:rgba(245,247,250,.96);backdrop-filter:blur(4px);border-bottom:1px solid var(--line);padding:10px 0;margin-top:24px;display:flex;gap:12px;align-items:center;flex-wrap:wrap}
.filters{display:flex;gap:0;border:1px solid var(--line);border-radius:6px;overflow:hidden;background:#fff}
.filters button{border:0;border-right:1px solid var(--line);background:#fff;padding:6px 12px;font:inherit;font-size:13px;cursor:pointer;color:var(--fg)}.filters button:last-child{border-right:0}
.filters button b{font-weight:600;color:var(--muted);margin-left:4px}.filters button.active{background:var(--accent);color:#fff}.filters button.active b{color:#dbeafe}
#q{flex:1;min-width:220px;padding:6px 10px;border:1px solid var(--line);border-radius:6px;font:inherit;font-size:13px}
.spec-section h2{display:flex;align-items:center;border-bottom:2px solid var(--line);padding-bottom:6px}.sec-num{color:var(--muted);margin-right:8px;font-variant-numeric:tabular-nums}
.clause{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--nc);border-radius:6px;padding:10px 14px;margin:8px 0}
.clause.v-pass{border-left-color:var(--pass)}.clause.v-fail{border-left-color:var(--fail)}.clause.v-error{border-left-color:var(--error)}.clause.v-skip{border-left-color:#8c959f}.clause.v-not-covered{border-left-style:dashed;background:#fbfcfd}.clause.is-warn{border-left-color:#d4a72c}
.cl-head{display:flex;align-items:center;gap:8px;flex-wrap:wrap}.clause-id{font-weight:600}.cl-counts{margin-left:auto;color:var(--muted);font-size:12px}
.cl-text{margin:6px 0 0;color:#2f3b4c}
.lvl{font-size:10.5px;font-weight:700;letter-spacing:.04em;padding:1px 6px;border-radius:4px;border:1px solid}
.lvl-MUST{color:#0a3069;border-color:#54aeff;background:#ddf4ff}.lvl-SHOULD{color:#7d4e00;border-color:#d4a72c;background:#fff8c5}.lvl-PROFILE{color:#5e2db3;border-color:#c297ff;background:#fbefff}
.pill{font-size:11.5px;font-weight:600;padding:1px 8px;border-radius:10px;white-space:nowrap}
.v-known.pill{background:#ddf4ff;color:#0550ae;border:1px solid #54aeff}.clause.is-known{border-left-color:#54aeff}.t-known{border-top-color:#54aeff}
.known-note{margin:4px 0;font-size:13px;color:#0550ae}.expired-note{margin:6px 0;font-size:13px;color:var(--fail);font-weight:600}.failure.stale{border-left-color:var(--fail)}
.coverage-line{font-size:14px;color:#d1d5db;margin:-8px 0 12px}.headline a,.coverage-line a{color:#93c5fd}
.tiers{display:flex;gap:12px;flex-wrap:wrap;margin:0 0 14px}.tier{border:1px solid rgba(255,255,255,.2);border-left:5px solid var(--nc);border-radius:6px;padding:6px 12px;min-width:300px}
.tier.tv-pass{border-left-color:#2da44e}.tier.tv-fail{border-left-color:#fa4549}.tier.tv-incomplete{border-left-color:#d4a72c}.tier-name{font-weight:700}.tier-what{font-size:12px;color:#9ca3af}
.v-pass.pill{background:var(--pass-bg);color:var(--pass)}.v-fail.pill{background:var(--fail-bg);color:var(--fail)}.v-error.pill{background:var(--error-bg);color:var(--error)}.v-warn.pill{background:var(--warn-bg);color:var(--warn)}.v-skip.pill{background:var(--skip-bg);color:var(--skip)}.v-not-covered.pill{background:#fff;color:var(--skip);border:1px dashed var(--nc)}
ul.checks{list-style:none;margin:8px 0 0;padding:0}ul.checks li{padding:4px 0;border-top:1px solid #f0f2f5;overflow-wrap:anywhere}ul.checks li:first-child{border-top:0}
.c-title{color:var(--muted);font-size:13px}.ev-link{font-size:12.5px}
details.more>summary{cursor:pointer;color:var(--muted);font-size:12.5px;margin-top:6px}
details.gaps>summary{cursor:pointer;color:var(--muted);font-size:12.5px;margin-top:6px}details.gaps ul{margin:4px 0 0 18px;font-size:12.5px}.cl-gaps{color:var(--warn)}
.hidden{display:none!important}
footer{color:var(--muted);font-size:12px;padding:30px 0 40px;text-align:center}
@media print{.toolbar,button.copy{display:none}.clause,.card{break-inside:avoid}}
`;

// No run data in here: everything the script reads comes from data- attributes.
export const JS = `
(function(){
  var filter='all', q='';
  var buttons=document.querySelectorAll('.filters button');
  var clauses=document.querySelectorAll('#clauses article.clause');
  var sections=document.querySelectorAll('#clauses section.spec-section');
  var shown=document.getElementById('shown');
  function match(el){
    var v=el.getAttribute('data-verdict'), l=el.getAttribute('data-level');
    if(filter==='failed'&&v!=='fail'&&v!=='error')return false;
    if(filter==='not-covered'&&v!=='not-covered')return false;
    if(filter==='skip'&&v!=='skip')return false;
    if(filter==='profile'&&l!=='PROFILE')return false;
    if(q&&(el.getAttribute('data-search')||'').indexOf(q)<0)return false;
    return true;
  }
  function apply(){
    var n=0;
    for(var i=0;i<clauses.length;i++){var ok=match(clauses[i]);clauses[i].classList.toggle('hidden',!ok);if(ok)n++;}
    for(var j=0;j<sections.length;j++){sections[j].classList.toggle('hidden',!sections[j].querySelector('article.clause:not(.hidden)'));}
    shown.textContent=(filter==='all'&&!q)?'':n+' shown';
  }
  for(var b=0;b<buttons.length;b++){buttons[b].addEventListener('click',function(ev){
    setFilter(ev.currentTarget.getAttribute('data-filter'));
    if(history.replaceState)history.replaceState(null,'',filter==='all'?location.pathname+location.search:'#filter='+filter);
  });}
  function setFilter(f){
    for(var k=0;k<buttons.length;k++)buttons[k].classList.toggle('active',buttons[k].getAttribute('data-filter')===f);
    filter=f;apply();
  }
  var m=/^#filter=([a-z-]+)$/.exec(location.hash);
  if(m&&document.querySelector('.filters button[data-filter="'+m[1]+'"]'))setFilter(m[1]);
  document.getElementById('q').addEventListener('input',function(ev){q=ev.target.value.trim().toLowerCase();apply();});
  document.addEventListener('click',function(ev){
    var t=ev.target; if(!t.classList||!t.classList.contains('copy'))return;
    var text=t.parentNode.querySelector('code').textContent;
    function done(){t.textContent='Copied';setTimeout(function(){t.textContent='Copy';},1500);}
    function fallback(){var ta=document.createElement('textarea');ta.value=text;document.body.appendChild(ta);ta.select();try{document.execCommand('copy');done();}catch(e){}document.body.removeChild(ta);}
    if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(text).then(done,fallback);}else{fallback();}
  });
  // A link to a check folded inside a cause opens the folds around it.
  function reveal(){var t=null;try{t=location.hash.length>1&&document.getElementById(decodeURIComponent(location.hash.slice(1)));}catch(e){}for(var d=t&&t.parentElement;d;d=d.parentElement)if(d.tagName==='DETAILS')d.open=true;if(t)t.scrollIntoView();}
  window.addEventListener('hashchange',reveal);reveal();
  window.addEventListener('beforeprint',function(){var d=document.querySelectorAll('details');for(var i=0;i<d.length;i++)d[i].open=true;});
})();
`;
