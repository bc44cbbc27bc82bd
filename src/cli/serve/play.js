(function(){
'use strict';
// The state of play: the givens, the player's digits and pencil marks (a 9-bit mask per cell,
// 0 for none noted), the selected cell, undo and redo stacks of snapshots.
var S={givens:null,values:null,marks:null,solution:null,sel:0,pencil:false,mistakes:false,
  undo:[],redo:[],hint:0,hintStep:null,walk:null,loaded:''};
var $=function(id){return document.getElementById(id);};
var board=$('board'),cells=[];
function rc(i){return 'r'+(Math.floor(i/9)+1)+'c'+(i%9+1);}
function peers(i){
  var r=Math.floor(i/9),c=i%9,b=3*Math.floor(r/3)*9+3*Math.floor(c/3),out=[];
  for(var j=0;j<81;j++){
    if(j===i)continue;
    var rj=Math.floor(j/9),cj=j%9,bj=3*Math.floor(rj/3)*9+3*Math.floor(cj/3);
    if(rj===r||cj===c||bj===b)out.push(j);
  }
  return out;
}
var PEERS=[];for(var p=0;p<81;p++)PEERS.push(peers(p));
// the digits the values of the cell's peers leave it
function allowed(i){
  var m=511;PEERS[i].forEach(function(j){if(S.values[j])m&=~(1<<(S.values[j]-1));});
  return m;
}
function setStatus(text,kind){var s=$('status');s.textContent=text;s.className=kind||'';}
function api(path,body){
  document.body.classList.add('busy');
  return fetch(path,{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify(body)})
    .then(function(r){return r.json().then(function(j){
      if(!r.ok)throw new Error(j&&j.error?j.error:('HTTP '+r.status));
      return j;});})
    .finally(function(){document.body.classList.remove('busy');});
}
// frames of a page the API wrote (lapiz solve/hint --format html), taken into this page
function framesOf(html){
  var doc=new DOMParser().parseFromString(html,'text/html');
  return {frames:Array.prototype.slice.call(doc.querySelectorAll('.frame')).map(function(f){return document.importNode(f,true);}),
    items:Array.prototype.slice.call(doc.querySelectorAll('#steps li')).map(function(li){return document.importNode(li,true);})};
}

// ---- the board ----
for(var i=0;i<81;i++){
  var d=document.createElement('div');
  d.className='cell r'+(Math.floor(i/9)+1)+' c'+(i%9+1);
  d.setAttribute('data-testid','cell-'+rc(i));
  d.setAttribute('role','gridcell');
  d.setAttribute('aria-label',rc(i));
  d.setAttribute('data-cell',String(i));
  d.tabIndex=-1;
  // the focus comes to the grid, so that keys type into it (not into the solution's list)
  d.addEventListener('click',(function(k){return function(){select(k);cells[k].focus({preventScroll:true});};})(i));
  board.appendChild(d);cells.push(d);
}
function select(i){S.sel=i;render();}
function render(){
  var sel=S.sel,sv=S.values?S.values[sel]:0,sp=PEERS[sel];
  for(var i=0;i<81;i++){
    var d=cells[i],v=S.values?S.values[i]:0,cls=['cell','r'+(Math.floor(i/9)+1),'c'+(i%9+1)];
    if(i===sel)cls.push('selected');else if(sv&&v===sv)cls.push('same');else if(sp.indexOf(i)>=0)cls.push('peer');
    if(S.givens&&S.givens[i])cls.push('given');else if(v)cls.push('entered');
    if(S.mistakes&&S.solution){
      if(v&&!S.givens[i]&&v!==S.solution[i])cls.push('wrong');
      if(!v&&S.marks[i]&&!(S.marks[i]&(1<<(S.solution[i]-1))))cls.push('wrong-marks');
    }
    d.className=cls.join(' ');
    d.setAttribute('aria-selected',i===sel?'true':'false');
    if(v){d.textContent=String(v);d.setAttribute('data-value',String(v));}
    else{
      d.removeAttribute('data-value');
      var m=S.marks?S.marks[i]:0;
      if(m){
        var g=document.createElement('div');g.className='marks';
        for(var k=1;k<=9;k++){var s=document.createElement('span');s.textContent=(m&(1<<(k-1)))?String(k):'';g.appendChild(s);}
        d.textContent='';d.appendChild(g);d.setAttribute('data-marks',marksText(m));
      }else{d.textContent='';d.removeAttribute('data-marks');}
    }
  }
  $('undo').disabled=!S.undo.length;$('redo').disabled=!S.redo.length;
  $('pencil').setAttribute('aria-pressed',S.pencil?'true':'false');
  $('mistakes').setAttribute('aria-pressed',S.mistakes?'true':'false');
  document.body.setAttribute('data-state',S.values?(solved()?'solved':'playing'):'empty');
}
function marksText(m){var t='';for(var k=1;k<=9;k++)if(m&(1<<(k-1)))t+=k;return t;}
function solved(){
  if(!S.solution)return false;
  for(var i=0;i<81;i++)if(S.values[i]!==S.solution[i])return false;
  return true;
}
function snapshot(){return {values:S.values.slice(),marks:S.marks.slice()};}
function restore(s){S.values=s.values.slice();S.marks=s.marks.slice();}
// one move: the state before it goes on the undo stack; the hint shown is for the old grid
function change(f){
  if(!S.values)return;
  var before=snapshot();
  if(f()===false)return;
  S.undo.push(before);S.redo=[];
  resetHint();render();
  if(solved())setStatus('Solved. Well done!','good');
}
function enter(digit){
  var i=S.sel;
  if(!S.values||S.givens[i])return;
  if(S.pencil){
    change(function(){if(S.values[i])return false;S.marks[i]^=1<<(digit-1);});
  }else{
    change(function(){
      if(S.values[i]===digit){S.values[i]=0;return;}
      S.values[i]=digit;S.marks[i]=0;
      PEERS[i].forEach(function(j){S.marks[j]&=~(1<<(digit-1));});
    });
  }
}
function erase(){
  var i=S.sel;
  if(!S.values||S.givens[i])return;
  change(function(){if(!S.values[i]&&!S.marks[i])return false;S.values[i]=0;S.marks[i]=0;});
}
function undo(){if(!S.undo.length)return;S.redo.push(snapshot());restore(S.undo.pop());resetHint();render();}
function redo(){if(!S.redo.length)return;S.undo.push(snapshot());restore(S.redo.pop());resetHint();render();}
$('erase').addEventListener('click',erase);
$('undo').addEventListener('click',undo);
$('redo').addEventListener('click',redo);
$('pencil').addEventListener('click',function(){S.pencil=!S.pencil;render();});
$('mistakes').addEventListener('click',function(){S.mistakes=!S.mistakes;render();});
$('fill').addEventListener('click',function(){
  change(function(){for(var i=0;i<81;i++)if(!S.values[i])S.marks[i]=allowed(i);});
});
Array.prototype.forEach.call(document.querySelectorAll('#pad button'),function(b){
  b.addEventListener('click',function(){enter(+b.getAttribute('data-digit'));});
});
document.addEventListener('keydown',function(e){
  var t=e.target,tag=t&&t.tagName;
  if(tag==='TEXTAREA'||tag==='INPUT'||tag==='SELECT')return;
  if(t&&t.closest&&t.closest('#walk'))return walkKey(e);
  if(!S.values)return;
  var ctrl=e.ctrlKey||e.metaKey,k=e.key;
  if(ctrl&&(k==='z'||k==='Z')){if(e.shiftKey)redo();else undo();e.preventDefault();return;}
  if(ctrl&&(k==='y'||k==='Y')){redo();e.preventDefault();return;}
  if(ctrl||e.altKey)return;
  var m=/^Digit([1-9])$/.exec(e.code||'')||/^Numpad([1-9])$/.exec(e.code||'');
  var digit=m?+m[1]:(/^[1-9]$/.test(k)?+k:0);
  if(digit){
    if(e.shiftKey){var p=S.pencil;S.pencil=true;enter(digit);S.pencil=p;render();}
    else enter(digit);
    e.preventDefault();return;
  }
  var moves={ArrowLeft:-1,ArrowRight:1,ArrowUp:-9,ArrowDown:9};
  if(k in moves){
    var i=S.sel,r=Math.floor(i/9),c=i%9;
    if(k==='ArrowLeft')c=(c+8)%9;else if(k==='ArrowRight')c=(c+1)%9;else if(k==='ArrowUp')r=(r+8)%9;else r=(r+1)%9;
    select(r*9+c);if(board.contains(document.activeElement))cells[S.sel].focus({preventScroll:true});
    e.preventDefault();return;
  }
  if(k==='Backspace'||k==='Delete'||k==='0'){erase();e.preventDefault();return;}
  if(k==='p'||k==='P'){S.pencil=!S.pencil;render();e.preventDefault();}
});

// ---- loading a puzzle ----
// the player's grid as a HoDoKu library line: givens, their digits (+), the candidates their
// pencil marks leave out
function gridLine(){
  var g='',del=[];
  for(var i=0;i<81;i++){
    var v=S.values[i];
    g+=v?((S.givens[i]?'':'+')+v):'.';
  }
  for(var j=0;j<81;j++){
    if(S.values[j]||!S.marks[j])continue;
    var a=allowed(j);
    for(var d=1;d<=9;d++)if((a&(1<<(d-1)))&&!(S.marks[j]&(1<<(d-1))))del.push(d+''+(Math.floor(j/9)+1)+(j%9+1));
  }
  return ':0000::'+g+':'+del.join(' ')+':::';
}
function digitsOf(line){return line.split('').map(function(ch){return /[1-9]/.test(ch)?+ch:0;});}
// the start of a solve: its givens, and from a library line the digits placed and the marks
function start(trace){
  S.givens=digitsOf(trace.puzzle);S.values=S.givens.slice();S.marks=new Array(81).fill(0);
  S.solution=trace.solution?digitsOf(trace.solution):null;
  if(trace.start){
    var f=trace.start.split(':'),g=f[3]||'',n=0,plus=false;
    for(var k=0;k<g.length&&n<81;k++){
      var ch=g[k];if(ch==='+'){plus=true;continue;}
      if(/[1-9]/.test(ch)&&plus)S.values[n]=+ch;
      plus=false;n++;
    }
    var deleted=(f[4]||'').split(/\s+/).filter(Boolean);
    deleted.forEach(function(t){
      var cell=(+t[1]-1)*9+(+t[2]-1);
      if(!S.values[cell]&&!S.marks[cell])S.marks[cell]=allowed(cell);
      S.marks[cell]&=~(1<<(+t[0]-1));
    });
  }
  S.undo=[];S.redo=[];S.sel=0;S.mistakes=false;
  resetHint();render();
}
function load(text,generated){
  setStatus('Solving…');
  $('rating').textContent='';
  S.loaded=text;
  return api('/api/solve',{puzzle:text,html:true}).then(function(j){
    if(j.size!==9){
      // the board plays 9x9 puzzles; of another size, the explained solution is shown
      S.givens=S.values=S.marks=S.solution=null;S.undo=[];S.redo=[];
      resetHint();render();setWalk(j);
      setStatus('A '+j.size+'x'+j.size+' puzzle: this board plays 9x9 ones, so here is its explained solution ("Show the explained solution").','');
      return;
    }
    start(j.trace);
    setWalk(j);
    var o=j.trace.outcome,stuck=(o!=='Solved');
    setStatus((generated?'A new '+generated+' puzzle. ':'Loaded. ')+
      (stuck?'Note: lapiz\'s techniques do not finish this one.':'Click a cell and type a digit; Shift+digit or Pencil for pencil marks.'),'');
    return api('/api/rate',{puzzle:j.trace.puzzle}).then(function(r){
      var h=r.rating.hardest_technique;
      $('rating').textContent='Rating '+r.text+' ('+r.level+')'+(h?', hardest step: '+(j.names[h]||h):'')+
        ', '+r.rating.steps+' steps';
    },function(e){$('rating').textContent='No rating: '+e.message;});
  }).catch(function(e){setStatus(e.message,'bad');});
}
$('load').addEventListener('click',function(){
  var t=$('puzzle-text').value.trim();
  if(!t){setStatus('Type or paste a puzzle first.','bad');return;}
  load(t);
});
$('generate').addEventListener('click',function(){
  var level=$('level').value;
  setStatus('Generating a '+level+' puzzle…');
  api('/api/generate',{level:level}).then(function(g){
    $('puzzle-text').value=g.puzzle;
    return load(g.puzzle,level);
  }).catch(function(e){setStatus(e.message,'bad');});
});

// ---- hints: a nudge, then the step drawn on the player's grid, then apply it ----
function resetHint(){
  S.hint=0;S.hintStep=null;
  $('hint-view').textContent='';
  $('hint-button').textContent='Hint';$('hint-button').disabled=false;
  $('hint-apply').hidden=true;$('hint-close').hidden=true;
  $('hint-text').className='';
}
function showHint(j){
  var t=$('hint-text');t.textContent=j.text;t.className='';
  var view=$('hint-view');view.textContent='';
  if(j.html)framesOf(j.html).frames.forEach(function(f){f.hidden=false;view.appendChild(f);});
  $('hint-close').hidden=false;
}
$('hint-button').addEventListener('click',function(){
  if(!S.values){$('hint-text').textContent='Load or generate a puzzle first.';return;}
  var level=S.hint===0?'nudge':'full';
  var stage=S.hint;
  api('/api/hint',{puzzle:gridLine(),level:level,html:true}).then(function(j){
    showHint(j);
    if(!j.found){S.hint=0;return;}
    if(stage===0){S.hint=1;$('hint-button').textContent='Show the step';}
    else{S.hint=2;S.hintStep=j.step;$('hint-button').disabled=true;$('hint-apply').hidden=false;}
  }).catch(function(e){
    var t=$('hint-text');
    t.textContent='Your grid cannot be right: '+e.message+'. "Show mistakes" marks wrong digits and pencil marks.';
    t.className='bad';
  });
});
$('hint-apply').addEventListener('click',function(){
  var st=S.hintStep;if(!st)return;
  var cellOf=function(c){var m=/^([1-9])r([1-9])c([1-9])$/.exec(c);return m?{d:+m[1],i:(+m[2]-1)*9+(+m[3]-1)}:null;};
  change(function(){
    (st.eliminations||[]).forEach(function(c){
      var x=cellOf(c);if(!x||S.values[x.i])return;
      if(!S.marks[x.i])S.marks[x.i]=allowed(x.i);
      S.marks[x.i]&=~(1<<(x.d-1));
    });
    (st.placements||[]).forEach(function(c){
      var x=cellOf(c);if(!x)return;
      S.values[x.i]=x.d;S.marks[x.i]=0;
      PEERS[x.i].forEach(function(j){S.marks[j]&=~(1<<(x.d-1));});
    });
  });
  $('hint-text').textContent='Applied: '+st.explanation;
});
$('hint-close').addEventListener('click',function(){resetHint();$('hint-text').textContent='';});

// ---- the explained solution, as the solve page shows it ----
function setWalk(j){
  var got=framesOf(j.html||''),view=$('walk-view'),list=$('step-list');
  view.textContent='';list.textContent='';
  got.frames.forEach(function(f){view.appendChild(f);});
  got.items.forEach(function(li){
    var k=li.getAttribute('data-step');
    if(k)li.setAttribute('data-testid','step-'+k);
    if(li.hasAttribute('data-frame'))li.addEventListener('click',function(){walkTo(+li.getAttribute('data-frame'));});
    list.appendChild(li);
  });
  S.walk={frames:got.frames,items:got.items,cur:0};
  $('walk-body').hidden=true;$('walk-prev').hidden=true;$('walk-next').hidden=true;
  $('walk-pos').textContent='';
  $('walk-show').hidden=false;
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
  w.cur=k;
  $('walk').setAttribute('data-current',String(k));
  $('walk-pos').textContent=$('walk-body').hidden?'':w.frames[k].getAttribute('data-title')+' of '+(w.frames.length-2);
}
function walkKey(e){
  var w=S.walk;if(!w)return;
  var moves={ArrowRight:1,ArrowDown:1,PageDown:1,ArrowLeft:-1,ArrowUp:-1,PageUp:-1};
  if(e.key in moves){walkTo(w.cur+moves[e.key]);e.preventDefault();}
  else if(e.key==='Home'){walkTo(0);e.preventDefault();}
  else if(e.key==='End'){walkTo(w.frames.length-1);e.preventDefault();}
}
$('walk-show').addEventListener('click',function(){
  if(!S.walk){$('walk-pos').textContent='Load or generate a puzzle first.';return;}
  $('walk-body').hidden=false;$('walk-prev').hidden=false;$('walk-next').hidden=false;
  $('walk-show').hidden=true;walkTo(S.walk.cur);$('walk-view').focus({preventScroll:true});
});
$('walk-prev').addEventListener('click',function(){if(S.walk)walkTo(S.walk.cur-1);});
$('walk-next').addEventListener('click',function(){if(S.walk)walkTo(S.walk.cur+1);});

render();
// a puzzle in the address (#puzzle=...) is loaded at once
var m=/^#puzzle=(.+)$/.exec(location.hash);
if(m){try{var t=decodeURIComponent(m[1]);$('puzzle-text').value=t;load(t);}catch(err){setStatus('The address holds no puzzle I can read.','bad');}}
})();
