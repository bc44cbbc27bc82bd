(function(){
'use strict';
// lapiz serve's page: a board of any size (4x4 to 25x25) played with symbols and pencil marks,
// hints drawn on it, the explained solution (walk.js walks its forcing nets), progress kept in
// local storage and in the address (#puzzle=...&marks=...).
var $=function(id){return document.getElementById(id);};
var board=$('board');
var KEY='lapiz-play';
// the board: size n, box rows br and columns bc, the symbols, each cell's peers
var G={n:0,br:0,bc:0,sym:[],numbers:false,peers:[],cells:[],sig:[]};
// the game: the board as read (/api/read), the text it came from, the player's values and pencil
// marks (a bit per symbol), undo and redo, the clock, what was used
var S={board:null,text:'',values:null,marks:null,sel:0,pencil:false,mistakes:false,undo:[],redo:[],
  time:0,since:0,paused:false,done:false,hints:0,errors:0,hint:0,hintStep:null,view:null,walk:null,lastKey:null};
var seq=0;
// whether the main pointer is a finger (asked when a game starts: a window can change)
function touch(){return !!(window.matchMedia&&window.matchMedia('(pointer:coarse)').matches);}

function rcOf(i){return 'r'+(Math.floor(i/G.n)+1)+'c'+(i%G.n+1);}
function boxOf(i){var r=Math.floor(i/G.n),c=i%G.n;return Math.floor(r/G.br)*(G.n/G.bc)+Math.floor(c/G.bc);}
function full(){return G.n>=32?0xffffffff:(1<<G.n)-1;}
function bit(v){return 1<<(v-1);}
function symOf(v){return G.sym[v-1]||'';}
function marksList(m,sep){var out=[];for(var v=1;v<=G.n;v++)if(m&bit(v))out.push(symOf(v));return out.join(sep);}
// the symbols the values of the cell's peers leave it
function allowed(i){
  var m=full();G.peers[i].forEach(function(j){if(S.values[j])m&=~bit(S.values[j]);});
  return m;
}
function setStatus(text,kind){var s=$('status');s.textContent=text;s.className=kind||'';}

// ---- the server ----
function api(path,body){
  document.body.classList.add('busy');
  return fetch(path,{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify(body)})
    .then(function(r){return r.json().then(function(j){
      if(!r.ok){var e=new Error(j&&j.error?j.error:('HTTP '+r.status));e.status=r.status;throw e;}
      return j;});})
    .finally(function(){document.body.classList.remove('busy');});
}
function sized(body){
  if(S.board&&G.n!==9){body.symbols=S.board.symbols;body.box=S.board.box;}
  return body;
}

// ---- the board's cells, built for the size ----
function build(b){
  var n=b.size,shape=b.box.split('x');
  G.n=n;G.br=+shape[0];G.bc=+shape[1];G.sym=b.symbol_list;G.numbers=(b.symbols==='numbers');
  var cells=n*n;
  G.peers=[];
  for(var i=0;i<cells;i++){
    var out=[],r=Math.floor(i/n),c=i%n,bx=boxOf(i);
    for(var j=0;j<cells;j++){if(j!==i&&(Math.floor(j/n)===r||j%n===c||boxOf(j)===bx))out.push(j);}
    G.peers.push(out);
  }
  board.textContent='';G.cells=[];G.sig=[];
  board.style.setProperty('--n',n);
  var mc=Math.ceil(Math.sqrt(n));
  board.style.setProperty('--mc',mc);board.style.setProperty('--mr',Math.ceil(n/mc));
  $('play').style.setProperty('--board-max',(n<=9?480:n<=12?600:n<=16?720:900)+'px');
  for(var row=0;row<n;row++){
    var rw=document.createElement('div');rw.className='grow';rw.setAttribute('role','row');
    for(var col=0;col<n;col++){
      var k=row*n+col,d=document.createElement('div');
      d.className='cell';
      d.setAttribute('data-testid','cell-'+rcOf(k));
      d.setAttribute('role','gridcell');
      d.setAttribute('data-cell',String(k));
      d.tabIndex=-1;
      d.addEventListener('click',(function(k){return function(){select(k);G.cells[k].focus({preventScroll:true});};})(k));
      d.addEventListener('focus',(function(k){return function(){if(S.sel!==k)select(k);};})(k));
      rw.appendChild(d);G.cells.push(d);G.sig.push('');
    }
    board.appendChild(rw);
  }
  var pad=$('pad');pad.textContent='';
  pad.style.setProperty('--pc',Math.ceil(n/Math.ceil(n/9)));
  for(var v=1;v<=n;v++){
    var btn=document.createElement('button');btn.type='button';btn.textContent=symOf(v);
    btn.setAttribute('data-testid','pad-'+v);btn.setAttribute('data-value',String(v));
    btn.addEventListener('click',(function(v){return function(){enter(v);if(G.cells[S.sel])G.cells[S.sel].focus({preventScroll:true});};})(v));
    pad.appendChild(btn);
  }
  sizeFonts();
}
function sizeFonts(){
  if(!G.n)return;
  var cell=board.clientWidth/G.n,mc=Math.ceil(Math.sqrt(G.n));
  board.style.setProperty('--value-font',Math.max(9,Math.round(cell*(G.numbers&&G.n>9?0.45:0.6)))+'px');
  board.style.setProperty('--mark-font',Math.max(6,Math.floor(cell/mc*(G.numbers?0.62:0.8)))+'px');
}
if(window.ResizeObserver)new ResizeObserver(sizeFonts).observe(board);else window.addEventListener('resize',sizeFonts);

function select(i){S.sel=i;render();}
function clashes(){
  var bad={};
  if(!S.values)return bad;
  for(var i=0;i<S.values.length;i++){
    var v=S.values[i];if(!v)continue;
    G.peers[i].forEach(function(j){if(S.values[j]===v){bad[i]=1;bad[j]=1;}});
  }
  return bad;
}
function render(){
  if(!S.board){document.body.setAttribute('data-state','empty');return;}
  var n=G.n,sel=S.sel,sv=S.values[sel],sp=G.peers[sel],bad=clashes(),view=S.view||{},sol=S.board.solution;
  for(var i=0;i<n*n;i++){
    var d=G.cells[i],v=S.values[i],r=Math.floor(i/n),c=i%n,cls=['cell'];
    if((c+1)%G.bc===0&&c<n-1)cls.push('bx');
    if((r+1)%G.br===0&&r<n-1)cls.push('by');
    if(c===n-1)cls.push('lastc');
    if(r===n-1)cls.push('lastr');
    if(i===sel)cls.push('selected');else if(sv&&v===sv)cls.push('same');else if(sp.indexOf(i)>=0)cls.push('peer');
    if(S.board.givens[i])cls.push('given');else if(v)cls.push('entered');
    if(bad[i])cls.push('clash');
    if(S.mistakes){
      if(v&&!S.board.givens[i]&&v!==sol[i])cls.push('wrong');
      if(!v&&S.marks[i]&&!(S.marks[i]&bit(sol[i])))cls.push('wrong-marks');
    }
    if(view.houses&&view.houses[i])cls.push('hint-house');
    if(view.put&&view.put[i])cls.push('hint-put');
    var m=v?0:S.marks[i],ghost=false,marked=view.cands&&view.cands[i];
    if(!v&&!m&&marked){m=allowed(i);ghost=true;}
    var hl=(sv&&!v&&(m&bit(sv)))?sv:0;
    var sig=cls.join(' ')+'|'+v+'|'+m+'|'+ghost+'|'+hl+'|'+(marked?JSON.stringify(marked):'');
    d.tabIndex=(i===sel)?0:-1;
    d.setAttribute('aria-selected',i===sel?'true':'false');
    if(sig===G.sig[i])continue;
    G.sig[i]=sig;
    d.className=cls.join(' ');
    var name=rcOf(i);
    if(v){
      d.textContent=symOf(v);d.setAttribute('data-value',String(v));d.removeAttribute('data-marks');
      d.setAttribute('aria-label',name+', '+(S.board.givens[i]?'given ':'')+symOf(v)+(bad[i]?', clashes with another':''));
    }else{
      d.removeAttribute('data-value');d.textContent='';
      if(m){
        var g=document.createElement('div');g.className='marks'+(ghost?' ghost':'');
        for(var k=1;k<=n;k++){
          var s=document.createElement('span');
          if(m&bit(k)){
            s.textContent=symOf(k);
            if(k===hl)s.className='hl';
            if(marked&&marked[k])s.className='h-'+marked[k];
          }
          g.appendChild(s);
        }
        d.appendChild(g);
      }
      if(S.marks[i])d.setAttribute('data-marks',marksList(S.marks[i],''));else d.removeAttribute('data-marks');
      d.setAttribute('aria-label',name+', empty'+(S.marks[i]?', pencil marks '+marksList(S.marks[i],' '):''));
    }
  }
  $('undo').disabled=!S.undo.length||S.done;$('redo').disabled=!S.redo.length||S.done;
  $('pencil').setAttribute('aria-pressed',S.pencil?'true':'false');
  $('mistakes').setAttribute('aria-pressed',S.mistakes?'true':'false');
  document.body.setAttribute('data-state',S.done?'solved':'playing');
}
function solved(){
  var sol=S.board.solution;
  for(var i=0;i<sol.length;i++)if(S.values[i]!==sol[i])return false;
  return true;
}
function snapshot(){return {values:S.values.slice(),marks:S.marks.slice()};}
function restore(s){S.values=s.values.slice();S.marks=s.marks.slice();}
// one move: the state before it goes on the undo stack; a hint shown was for the old grid
function change(f){
  if(!S.board||S.done||S.paused)return;
  var before=snapshot();
  if(f()===false)return;
  S.undo.push(before);if(S.undo.length>500)S.undo.shift();S.redo=[];
  afterChange();
}
function afterChange(){
  resetHint();
  if(solved())finish();
  render();save();
}
// a value put in a cell: its marks go, and the value leaves its peers' marks
function place(i,v){
  S.values[i]=v;S.marks[i]=0;
  G.peers[i].forEach(function(j){S.marks[j]&=~bit(v);});
}
// a value the player put in a cell: a mistake when it is not the solution's
function put(i,v){
  place(i,v);
  if(v!==S.board.solution[i])S.errors++;
}
function enter(v){
  var i=S.sel;
  if(!S.board||S.board.givens[i]||S.done||S.paused)return;
  if(S.pencil){
    change(function(){if(S.values[i])return false;S.marks[i]^=bit(v);});
  }else{
    change(function(){
      if(S.values[i]===v){S.values[i]=0;return;}
      put(i,v);
    });
  }
}
function erase(){
  var i=S.sel;
  if(!S.board||S.board.givens[i])return;
  change(function(){if(!S.values[i]&&!S.marks[i])return false;S.values[i]=0;S.marks[i]=0;});
}
function undo(){if(!S.undo.length||S.done||S.paused)return;S.redo.push(snapshot());restore(S.undo.pop());afterChange();}
function redo(){if(!S.redo.length||S.done||S.paused)return;S.undo.push(snapshot());restore(S.redo.pop());afterChange();}
$('erase').addEventListener('click',erase);
$('undo').addEventListener('click',undo);
$('redo').addEventListener('click',redo);
$('pencil').addEventListener('click',function(){S.pencil=!S.pencil;render();});
$('mistakes').addEventListener('click',function(){S.mistakes=!S.mistakes;render();});
$('fill').addEventListener('click',function(){
  change(function(){for(var i=0;i<S.values.length;i++)if(!S.values[i])S.marks[i]=allowed(i);});
});

// ---- keys: on the grid (or nowhere in particular); the solution's panel has its own ----
function valueOfKey(e){
  var k=e.key;
  var m=/^Digit([0-9])$/.exec(e.code||'')||/^Numpad([0-9])$/.exec(e.code||'');
  var ch=m?m[1]:(k&&k.length===1?k.toUpperCase():'');
  if(!ch)return 0;
  if(G.numbers&&G.n>9&&/[0-9]/.test(ch)){
    // two digits typed quickly in one cell make one number (12)
    var last=S.lastKey,now=Date.now(),d=+ch;
    if(last&&last.cell===S.sel&&now-last.at<900&&last.d*10+d<=G.n&&last.d*10+d>9){S.lastKey=null;return {v:last.d*10+d,replace:true};}
    S.lastKey={cell:S.sel,at:now,d:d};
    return d>=1?{v:d}:0;
  }
  var v=G.sym.indexOf(ch)+1;
  return v?{v:v}:0;
}
document.addEventListener('keydown',function(e){
  var t=e.target,tag=t&&t.tagName;
  if(tag==='TEXTAREA'||tag==='INPUT'||tag==='SELECT')return;
  if(e.key==='Escape'&&S.hint){resetHint();setHintText('');render();e.preventDefault();return;}
  if(t&&t.closest&&t.closest('#walk'))return walkKey(e);
  var onGrid=board.contains(t)||t===document.body||t===document.documentElement;
  var onPlay=onGrid||(t&&t.closest&&t.closest('#play')&&tag!=='A');
  if(!S.board||!onPlay)return;
  var ctrl=e.ctrlKey||e.metaKey,k=e.key;
  if(ctrl&&(k==='z'||k==='Z')){if(e.shiftKey)redo();else undo();e.preventDefault();return;}
  if(ctrl&&(k==='y'||k==='Y')){redo();e.preventDefault();return;}
  if(ctrl||e.altKey)return;
  if(tag==='BUTTON'&&(k===' '||k==='Enter'))return;
  var moves={ArrowLeft:[0,-1],ArrowRight:[0,1],ArrowUp:[-1,0],ArrowDown:[1,0]};
  if(k in moves&&onGrid){
    var n=G.n,r=Math.floor(S.sel/n),c=S.sel%n;
    r=(r+moves[k][0]+n)%n;c=(c+moves[k][1]+n)%n;
    select(r*n+c);G.cells[S.sel].focus({preventScroll:true});
    e.preventDefault();return;
  }
  if(k==='Backspace'||k==='Delete'||(k==='0'&&G.sym.indexOf('0')<0&&!G.numbers)){erase();e.preventDefault();return;}
  if((k==='p'||k==='P')&&G.sym.indexOf('P')<0){S.pencil=!S.pencil;render();e.preventDefault();return;}
  var got=valueOfKey(e);
  if(got){
    if(got.replace&&!S.pencil&&!e.shiftKey){
      var i=S.sel;change(function(){put(i,got.v);});
    }else if(e.shiftKey){var p=S.pencil;S.pencil=true;enter(got.v);S.pencil=p;render();}
    else enter(got.v);
    e.preventDefault();
  }
});

// ---- the clock, pause and the finish ----
function elapsed(){return S.time+(S.since?performance.now()-S.since:0);}
function running(){return !!S.board&&!S.paused&&!S.done&&!document.hidden;}
function clockRun(){
  if(running()&&!S.since)S.since=performance.now();
  if(!running()&&S.since){S.time+=performance.now()-S.since;S.since=0;}
}
function fmt(ms){var s=Math.floor(ms/1000),h=Math.floor(s/3600),m=Math.floor(s/60)%60,x=s%60;
  return (h?h+':'+(m<10?'0':''):'')+m+':'+(x<10?'0':'')+x;}
function tick(){clockRun();$('clock').textContent=fmt(elapsed());}
setInterval(tick,1000);
document.addEventListener('visibilitychange',function(){tick();save();});
$('pause').addEventListener('click',function(){
  if(!S.board||S.done)return;
  S.paused=!S.paused;
  $('pause').setAttribute('aria-pressed',S.paused?'true':'false');
  $('pause').textContent=S.paused?'Resume':'Pause';
  $('paused').hidden=!S.paused;board.setAttribute('aria-hidden',S.paused?'true':'false');
  tick();save();
});
function finish(){
  S.done=true;clockRun();tick();
  var plural=function(k,w){return k+' '+w+(k===1?'':'s');};
  var f=$('finish');
  f.textContent='Solved in '+fmt(elapsed())+' with '+plural(S.hints,'hint')+' and '+plural(S.errors,'mistake')+'. Well done!';
  f.hidden=false;
  setStatus('Solved. Well done!','good');
}

// ---- saving: local storage and the address ----
function encodeMarks(){
  var out=[];
  for(var i=0;i<S.values.length;i++){
    if(S.values[i]&&!S.board.givens[i])out.push('='+S.values[i].toString(36));
    else if(!S.values[i]&&S.marks[i])out.push(S.marks[i].toString(36));
    else out.push('');
  }
  return out.join('.').replace(/\.+$/,'');
}
function applyMarks(text){
  var parts=(text||'').split('.');
  for(var i=0;i<parts.length&&i<S.values.length;i++){
    var p=parts[i];if(!p||S.board.givens[i])continue;
    if(p[0]==='='){var v=parseInt(p.slice(1),36);if(v>=1&&v<=G.n)S.values[i]=v;}
    else{var m=parseInt(p,36);if(m>0)S.marks[i]=m&full();}
  }
}
function link(){
  return location.href.split('#')[0]+'#puzzle='+encodeURIComponent(S.text)+(S.values?'&marks='+encodeURIComponent(encodeMarks()):'');
}
function save(){
  if(!S.board)return;
  clockRun();
  var url=link();
  $('share').href=url;
  try{history.replaceState(null,'',url);}catch(err){/* a file: page */}
  try{
    localStorage.setItem(KEY,JSON.stringify({text:S.text,board:S.board,values:S.values,marks:S.marks,
      undo:S.undo.slice(G.n>16?-20:-100),redo:S.redo.slice(G.n>16?-20:-100),time:elapsed(),hints:S.hints,errors:S.errors,done:S.done,
      code:encodeMarks(),
      rating:$('rating').textContent}));
  }catch(err){/* storage full or off: the address still holds the grid */}
}
// the game kept here, if it is whole (a value and a mark for each cell of its board)
function saved(){
  var k;
  try{k=JSON.parse(localStorage.getItem(KEY)||'null');}catch(err){return null;}
  var whole=k&&k.board&&k.board.values&&Array.isArray(k.values)&&Array.isArray(k.marks)&&
    k.values.length===k.board.values.length&&k.marks.length===k.values.length&&typeof k.text==='string';
  return whole?k:null;
}
function hashParts(){
  var h=location.hash.replace(/^#/,''),out={};
  h.split('&').forEach(function(kv){var i=kv.indexOf('=');if(i>0){try{out[kv.slice(0,i)]=decodeURIComponent(kv.slice(i+1));}catch(err){out.bad=1;}}});
  return out;
}
$('share').addEventListener('click',function(e){
  e.preventDefault();if(!S.board)return;
  var url=link();
  if(navigator.clipboard&&navigator.clipboard.writeText)navigator.clipboard.writeText(url).then(function(){setStatus('The link to this grid is copied.','');},function(){setStatus('The link: '+url,'');});
  else setStatus('The link: '+url,'');
});

// ---- loading a puzzle ----
function progress(){return !!S.board&&!S.done&&S.undo.length>0;}
var pending=null;
function askDiscard(then){
  if(!progress()){then();return;}
  pending=then;$('source').open=true;$('confirm').hidden=false;$('confirm-yes').focus();
}
$('confirm-yes').addEventListener('click',function(){$('confirm').hidden=true;var f=pending;pending=null;if(f)f();});
$('confirm-no').addEventListener('click',function(){$('confirm').hidden=true;pending=null;});
function busy(on){$('load').disabled=on;$('generate').disabled=on;}
// a fresh game on board b (read from `text`): the board now, the explained solution and the
// rating as they come
function start(b,text,how,marks,restored){
  build(b);
  S.board=b;S.text=text;S.values=b.values.slice();S.marks=b.marks?b.marks.map(function(m,i){return b.values[i]?0:m;}):new Array(b.values.length).fill(0);
  S.undo=[];S.redo=[];S.sel=0;S.mistakes=false;S.done=false;S.paused=false;S.hints=0;S.errors=0;S.time=0;S.since=0;S.asked=false;
  $('paused').hidden=true;$('pause').textContent='Pause';$('pause').setAttribute('aria-pressed','false');
  $('finish').hidden=true;
  if(restored){
    S.values=restored.values;S.marks=restored.marks;S.undo=restored.undo||[];S.redo=restored.redo||[];
    S.time=restored.time||0;S.hints=restored.hints||0;S.errors=restored.errors||0;
  }
  if(marks)applyMarks(marks);
  resetHint();setHintText(HELP);
  if(solved())finish();
  render();save();tick();
  var size=G.n===9?'':' '+G.n+'x'+G.n;
  var how2=touch()?'Tap a cell, then a symbol below; Pencil for pencil marks.':'Click a cell and type a symbol; Shift+symbol or Pencil for pencil marks.';
  if(!S.done)setStatus((how||'Loaded.')+' '+how2+(size?' ('+size.trim()+')':''),'');
  if(window.matchMedia&&window.matchMedia('(max-width:600px)').matches)$('source').open=false;
}
// reads `text` (typed, generated or from the address) and starts a game on it
function open(text,how,marks,restored){
  var mine=++seq;
  busy(true);
  setStatus('Reading the puzzle…');
  return api('/api/read',{puzzle:text}).then(function(b){
    if(mine!==seq)return;
    start(b,text,how,marks,restored);
    explain(mine,restored&&restored.rating);
  },function(e){
    if(mine!==seq)return;
    var cells=text.replace(/\s/g,'').length,n=Math.round(Math.sqrt(cells));
    var read=(e.status===422&&n*n===cells&&/^[^\s]+$/.test(text.trim()))?'Read as a '+n+'x'+n+' puzzle ('+cells+' cells; 9x9 has 81, 16x16 256): ':'';
    setStatus(read+e.message,'bad');
  }).finally(function(){if(mine===seq)busy(false);});
}
// the largest board explained and rated as soon as it loads: a 25x25 solve by logic takes
// minutes, and would hold the address's job slot (hints wait for it) until the time limit
var EXPLAINED=16;
// the explained solution, then the rating (one request at a time: a job slot each); on a
// larger board only when asked (`asked`)
function explain(mine,rating,asked){
  if(G.n>EXPLAINED&&!asked){
    S.stepsText='';
    $('rating').textContent=rating||'Not rated: a '+G.n+'x'+G.n+' solve takes minutes ("Show the explained solution" tries).';
    clearWalk('');
    return;
  }
  $('rating').textContent=rating||'Being rated…';
  clearWalk('Solving…');
  var body=function(extra){var b={puzzle:S.text};for(var k in extra)b[k]=extra[k];return b;};
  api('/api/solve',body({html:true})).then(function(j){
    if(mine!==seq)return;
    setWalk(j);
    var steps=j.trace.entries.filter(function(e){return e.Step;}).length;
    var n=steps+(steps===1?' step':' steps');
    S.stepsText=(j.trace.outcome==='Solved'?'explained in '+n:'lapiz\'s techniques find '+n+' and stop');
  },function(e){
    if(mine!==seq)return;
    clearWalk(e.status===503?'The explained solution needs longer than this server allows ('+e.message+'); `lapiz solve` on the command line takes the time it needs.':'No explained solution: '+e.message);
  }).then(function(){
    if(mine!==seq||rating)return;
    return api('/api/rate',body({})).then(function(r){
      if(mine!==seq)return;
      showRating(r);save();
    },function(e){
      if(mine!==seq)return;
      $('rating').textContent=e.status===503?'No rating: it needs longer than this server allows.':'No rating: '+e.message;
    });
  });
}
function showRating(r){
  var el=$('rating');el.textContent='Rating '+r.text+' ('+r.level.toLowerCase()+')';
  if(r.hardest_name){el.appendChild(document.createTextNode(', hardest step: '));el.appendChild(techLink(r.rating.hardest_technique,r.hardest_name));}
  if(S.stepsText)el.appendChild(document.createTextNode('; '+S.stepsText));
}
// a technique's name, linked to its description on the page when the page has one
function techLink(id,name){
  var dt=document.getElementById('t-'+String(id).replace(/[^A-Za-z0-9]/g,'-'));
  if(!dt)return document.createTextNode(name);
  var a=document.createElement('a');a.className='tech';a.href='#'+dt.id;a.textContent=name;
  return a;
}
document.addEventListener('click',function(e){
  var a=e.target.closest&&e.target.closest('a.tech');
  if(!a)return;
  e.preventDefault();
  var dt=document.getElementById(a.getAttribute('href').slice(1));
  if(!dt)return;
  var d=dt.closest('details');if(d)d.open=true;
  dt.scrollIntoView({block:'center'});dt.classList.add('flash');
  setTimeout(function(){dt.classList.remove('flash');},1600);
});
$('load').addEventListener('click',function(){
  var t=$('puzzle-text').value.trim();
  if(!t){setStatus('Type or paste a puzzle first.','bad');return;}
  askDiscard(function(){open(t,'Loaded.');});
});
$('generate').addEventListener('click',function(){
  askDiscard(function(){
    var level=$('level').value,n=+$('size').value,mine=++seq;
    busy(true);
    setStatus('Generating a '+level+(n===9?'':' '+n+'x'+n)+' puzzle…');
    var req={level:level};if(n!==9)req.size=n;
    api('/api/generate',req).then(function(g){
      if(mine!==seq)return;
      $('puzzle-text').value=g.puzzle;
      busy(false);
      return open(g.puzzle,'A new '+level+' puzzle.');
    }).catch(function(e){
      if(mine!==seq)return;
      setStatus(e.status===503?'A '+level+' '+n+'x'+n+' puzzle takes longer to generate than this server allows; try another level or paste one.':e.message,'bad');
      busy(false);
    });
  });
});

// ---- hints: a nudge, then the step on the player's board, then apply it ----
var HELP='A hint looks at your grid, pencil marks included: first where to look, then the step on your board, then you can apply it. Cells are named by row and column: r3c5 is row 3, column 5.';
function setHintText(t,kind){var h=$('hint-text');h.textContent=t;h.className=kind||'';}
function resetHint(){
  S.hint=0;S.hintStep=null;S.view=null;
  $('hint-button').textContent='Hint';$('hint-button').disabled=false;
  $('hint-apply').hidden=true;$('hint-close').hidden=true;
  if($('hint-text').className==='bad'||$('hint-text').textContent.indexOf('Applied')!==0)setHintText('');
}
// the player's grid as the hint reads it. On 9x9 a HoDoKu library line: givens, the player's
// digits (`+5`), the candidates their pencil marks leave out. Elsewhere a pencil-mark grid: a
// value is one symbol, an empty cell its marks (or every candidate its peers leave when none
// are noted), `(x)` for one candidate.
function gridText(){
  var n=G.n,rows=[];
  if(n===9){
    var g='',del=[];
    for(var i=0;i<81;i++){var v=S.values[i];g+=v?((S.board.givens[i]?'':'+')+v):'.';}
    for(var j=0;j<81;j++){
      if(S.values[j]||!S.marks[j])continue;
      var a=allowed(j);
      for(var d=1;d<=9;d++)if((a&bit(d))&&!(S.marks[j]&bit(d)))del.push(d+''+(Math.floor(j/9)+1)+(j%9+1));
    }
    return ':0000::'+g+':'+del.join(' ')+':::';
  }
  for(var r=0;r<n;r++){
    var row=[];
    for(var c=0;c<n;c++){
      var i=r*n+c,v=S.values[i];
      if(v){row.push(symOf(v));continue;}
      var m=S.marks[i]||allowed(i),g=marksList(m,G.numbers?',':'');
      row.push((m&(m-1))===0?'('+g+')':g);
    }
    rows.push(row.join(' '));
  }
  return rows.join('\n');
}
// what is wrong with the grid, before asking the server for a step that cannot follow from it
function gridProblem(){
  var sol=S.board.solution,bad=clashes();
  for(var i=0;i<sol.length;i++){
    if(!bad[i]||S.board.givens[i])continue;
    var other=G.peers[i].filter(function(j){return S.values[j]===S.values[i];})[0];
    return 'The '+symOf(S.values[i])+' in '+rcOf(i)+' is in '+rcOf(other)+' too, which shares its row, column or box.';
  }
  for(var j=0;j<sol.length;j++){
    if(S.values[j]&&S.values[j]!==sol[j])return 'The '+symOf(S.values[j])+' in '+rcOf(j)+' is not in the solution, so no step follows from this grid: erase it first.';
    if(!S.values[j]&&S.marks[j]&&!(S.marks[j]&bit(sol[j])))return rcOf(j)+'\'s pencil marks leave out the symbol it needs: a hint cannot follow from them.';
  }
  return null;
}
function humane(t){
  return t.replace(/\s*=>\s*/g,', so ').replace(/\s*<>\s*/g,' is not ')
    .replace(/\bb(\d+)\b/g,'box $1').replace(/\br(\d+)\b/g,'row $1').replace(/\bc(\d+)\b/g,'column $1');
}
function candOf(text){
  var m=/^(.+?)r(\d+)c(\d+)$/.exec(text);if(!m)return null;
  var v=G.sym.indexOf(m[1].toUpperCase())+1;
  return v?{v:v,i:(+m[2]-1)*G.n+(+m[3]-1)}:null;
}
function cellsOfHouse(h){
  var m=/^([rcb])(\d+)$/.exec(h),out=[];if(!m)return out;
  var k=+m[2]-1,n=G.n;
  for(var i=0;i<n*n;i++){
    if((m[1]==='r'&&Math.floor(i/n)===k)||(m[1]==='c'&&i%n===k)||(m[1]==='b'&&boxOf(i)===k))out.push(i);
  }
  return out;
}
// the step drawn on the board: its houses shaded, its candidates coloured, what it removes
// struck out, what it places ringed
function viewOf(step,nudge){
  var v={houses:{},cands:{},put:{}};
  (step.houses||[]).forEach(function(h){cellsOfHouse(h).forEach(function(i){v.houses[i]=1;});});
  if(nudge)return v;
  var mark=function(c,kind){var x=candOf(c);if(!x)return;(v.cands[x.i]=v.cands[x.i]||{})[x.v]=kind;};
  (step.highlights||[]).forEach(function(h){
    var kind=String(h[0]).replace(/([a-z])([A-Z])/g,'$1-$2').toLowerCase();
    (h[1]||[]).forEach(function(c){mark(c,kind);});
  });
  (step.eliminations||[]).forEach(function(c){mark(c,'gone');});
  (step.placements||[]).forEach(function(c){mark(c,'put');var x=candOf(c);if(x)v.put[x.i]=1;});
  return v;
}
function showHintText(j){
  var t=$('hint-text');t.className='';t.textContent='';
  var text=humane(j.text),name=j.name,at=name?text.indexOf(name):-1;
  if(at>=0){
    t.appendChild(document.createTextNode(text.slice(0,at)));
    t.appendChild(techLink(j.technique,name));
    t.appendChild(document.createTextNode(text.slice(at+name.length)));
  }else t.textContent=text;
}
$('hint-button').addEventListener('click',function(){
  if(!S.board){setHintText('Load or generate a puzzle first.');return;}
  if(S.done){setHintText('The puzzle is solved.');return;}
  var problem=gridProblem();
  if(problem){setHintText(problem,'bad');return;}
  var stage=S.hint,mine=seq;
  $('hint-button').disabled=true;
  api('/api/hint',sized({puzzle:gridText(),level:stage===0?'nudge':'full'})).then(function(j){
    if(mine!==seq)return;
    $('hint-button').disabled=false;
    showHintText(j);
    $('hint-close').hidden=false;
    if(!j.found){S.hint=0;return;}
    S.hints++;
    S.view=viewOf(j.step,stage===0);
    if(stage===0){S.hint=1;$('hint-button').textContent='Show the step';}
    else{S.hint=2;S.hintStep=j.step;$('hint-button').disabled=true;$('hint-apply').hidden=false;}
    render();save();
  },function(e){
    if(mine!==seq)return;
    $('hint-button').disabled=false;
    setHintText(e.status===503?'Finding the next step takes longer than this server allows.':'No hint: '+e.message,'bad');
  });
});
$('hint-apply').addEventListener('click',function(){
  var st=S.hintStep;if(!st)return;
  var said=humane(st.explanation);
  change(function(){
    (st.eliminations||[]).forEach(function(c){
      var x=candOf(c);if(!x||S.values[x.i])return;
      if(!S.marks[x.i])S.marks[x.i]=allowed(x.i);
      S.marks[x.i]&=~bit(x.v);
    });
    (st.placements||[]).forEach(function(c){
      var x=candOf(c);if(x)place(x.i,x.v);
    });
  });
  if(!S.done)setHintText('Applied: '+said);
});
$('hint-close').addEventListener('click',function(){resetHint();setHintText('');render();});

// ---- the explained solution, as the solve page shows it ----
function clearWalk(why){
  S.walk=null;$('walk-view').textContent='';$('step-list').textContent='';
  var gs=$('glossary-slot'),old=gs.querySelector('#glossary');if(old)gs.removeChild(old);gs.hidden=true;
  $('walk-body').hidden=true;$('walk-prev').hidden=true;$('walk-next').hidden=true;$('walk-show').hidden=false;
  $('walk-pos').textContent=why||'';
}
function setWalk(j){
  var doc=new DOMParser().parseFromString(j.html||'','text/html');
  var take=function(sel){return Array.prototype.slice.call(doc.querySelectorAll(sel)).map(function(x){return document.importNode(x,true);});};
  var frames=take('.frame'),items=take('#steps li'),gl=take('#glossary');
  var view=$('walk-view'),list=$('step-list');
  clearWalk('');
  frames.forEach(function(f){view.appendChild(f);});
  items.forEach(function(li){
    var k=li.getAttribute('data-step');
    if(k)li.setAttribute('data-testid','step-'+k);
    if(li.hasAttribute('data-frame'))li.addEventListener('click',function(){walkTo(+li.getAttribute('data-frame'));});
    list.appendChild(li);
  });
  if(gl[0]){$('glossary-slot').appendChild(gl[0]);$('glossary-slot').hidden=false;}
  S.walk={frames:frames,items:items,nets:frames.map(lapizNet),cur:0};
  walkTo(0);
}
function walkTo(k){
  var w=S.walk;if(!w||!w.frames.length)return;
  k=Math.max(0,Math.min(w.frames.length-1,k));
  w.frames.forEach(function(f,i){f.hidden=(i!==k);});
  w.items.forEach(function(li){
    var on=(+li.getAttribute('data-frame')===k&&li.hasAttribute('data-frame'));
    li.classList.toggle('current',on);
    if(on){li.setAttribute('aria-current','step');if(li.scrollIntoView&&!$('walk-body').hidden)li.scrollIntoView({block:'nearest'});}
    else li.removeAttribute('aria-current');
  });
  w.cur=k;w.nets[k].all();
  $('walk').setAttribute('data-current',String(k));
  $('walk-pos').textContent=$('walk-body').hidden?'':w.frames[k].getAttribute('data-title')+' of '+(w.frames.length-2);
}
function walkKey(e){
  var w=S.walk;if(!w||e.ctrlKey||e.metaKey||e.altKey)return;
  var t=e.target;if(t&&(t.tagName==='BUTTON'||t.tagName==='A')&&(e.key===' '||e.key==='Enter'))return;
  var moves={ArrowRight:1,ArrowDown:1,PageDown:1,ArrowLeft:-1,ArrowUp:-1,PageUp:-1},net=w.nets[w.cur],k=e.key;
  if(k in moves)walkTo(w.cur+moves[k]);
  else if(k==='Home')walkTo(0);
  else if(k==='End')walkTo(w.frames.length-1);
  else if(k==='n'||k==='N')net.next();
  else if(k==='p'||k==='P')net.prev();
  else if(k==='b'||k==='B')net.branch();
  else if(k==='a'||k==='A'||k==='Escape')net.all();
  else return;
  e.preventDefault();
}
$('walk-show').addEventListener('click',function(){
  if(!S.walk&&S.board&&G.n>EXPLAINED&&!S.asked){S.asked=true;explain(seq,null,true);return;}
  if(!S.walk){if(!S.board)$('walk-pos').textContent='Load or generate a puzzle first.';return;}
  $('walk-body').hidden=false;$('walk-prev').hidden=false;$('walk-next').hidden=false;
  $('walk-show').hidden=true;walkTo(S.walk.cur);$('walk-view').focus({preventScroll:true});
});
$('walk-prev').addEventListener('click',function(){if(S.walk)walkTo(S.walk.cur-1);});
$('walk-next').addEventListener('click',function(){if(S.walk)walkTo(S.walk.cur+1);});

// ---- the theme: the system's, or light or dark as chosen ----
var THEMES=['auto','light','dark'];
function setTheme(t){document.documentElement.setAttribute('data-theme',t);$('theme').textContent='Theme: '+t;try{localStorage.setItem(KEY+'-theme',t);}catch(err){/* off */}}
$('theme').addEventListener('click',function(){
  var t=document.documentElement.getAttribute('data-theme');
  setTheme(THEMES[(THEMES.indexOf(t)+1)%3]);
});
try{var th=localStorage.getItem(KEY+'-theme');if(THEMES.indexOf(th)>=0)setTheme(th);}catch(err){/* off */}

// ---- the start: the address's puzzle, else the game kept from the last visit ----
function fromAddress(){
  var h=hashParts(),keep=saved();
  if(h.bad){setStatus('The address holds no puzzle I can read.','bad');return false;}
  if(!h.puzzle)return false;
  if(S.board&&h.puzzle===S.text&&(h.marks||'')===encodeMarks())return true;
  $('puzzle-text').value=h.puzzle;
  // the address of the game kept here (a reload) restores it, undo and clock included
  var same=keep&&keep.board&&keep.text===h.puzzle&&(!h.marks||h.marks===keep.code);
  askDiscard(function(){
    if(same)restoreGame(keep);
    else open(h.puzzle,'Loaded from the address.',h.marks);
  });
  return true;
}
function restoreGame(keep){
  seq++;
  $('puzzle-text').value=keep.text;
  start(keep.board,keep.text,'Welcome back: your grid is as you left it.',null,keep);
  if(keep.rating&&keep.rating.indexOf('Rating')===0)$('rating').textContent=keep.rating;
  explain(seq,keep.rating&&keep.rating.indexOf('Rating')===0?keep.rating:null);
}
window.addEventListener('hashchange',fromAddress);
if(!fromAddress()){var keep=saved();if(keep&&keep.board&&keep.values)restoreGame(keep);}
render();
})();
