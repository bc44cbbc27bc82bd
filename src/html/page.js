
(function(){
  var frames=Array.prototype.slice.call(document.querySelectorAll('.frame'));
  var items=Array.prototype.slice.call(document.querySelectorAll('#steps li[data-frame]'));
  var pos=document.getElementById('pos');
  var cur=0;
  function show(k){
    k=Math.max(0,Math.min(frames.length-1,k));
    frames.forEach(function(f,i){f.hidden=(i!==k);});
    items.forEach(function(li){
      var on=(+li.getAttribute('data-frame')===k);
      li.classList.toggle('current',on);
      if(on){li.setAttribute('aria-current','step');if(li.scrollIntoView)li.scrollIntoView({block:'nearest'});}
      else li.removeAttribute('aria-current');
    });
    cur=k;
    document.body.setAttribute('data-current',String(k));
    if(pos)pos.textContent=frames[k].getAttribute('data-title');
    walk(-1,0);
  }
  // a forcing net's proof, walked a line at a time (its arrows lit, the rest dimmed) or a
  // branch at a time; -1 and 0: the whole net
  var wpos=-1,wbranch=0;
  function plines(){var f=frames[cur];return f?Array.prototype.slice.call(f.querySelectorAll('.proof .pl')):[];}
  function set(line){var s={};if(line)line.getAttribute('data-imps').split(' ').forEach(function(i){if(i)s[i]=1;});return s;}
  function walk(p,b){
    var f=frames[cur],ls=plines();
    if(!f||!ls.length)return;
    wpos=Math.max(-1,Math.min(ls.length-1,p));wbranch=wpos>=0?0:b;
    var line=wpos>=0?ls[wpos]:null;
    var br=line?line.getAttribute('data-branch'):(wbranch?String(wbranch):null);
    var now=set(line),done={};
    ls.forEach(function(l,i){
      var mine=l.getAttribute('data-branch')===br;
      if(line&&mine&&i<wpos){var s=set(l);for(var x in s)done[x]=1;}
      l.classList.toggle('cur',i===wpos);
      l.classList.toggle('dim',!!br&&(!mine||(!!line&&i>wpos)));
    });
    Array.prototype.forEach.call(f.querySelectorAll('.net .branch'),function(g){
      var mine=g.getAttribute('data-branch')===br;
      Array.prototype.forEach.call(g.querySelectorAll('line'),function(a){
        var t=a.getAttribute('data-to');
        a.classList.toggle('lit',!!line&&mine&&!!now[t]);
        a.classList.toggle('dim',!!br&&(!mine||(!!line&&!now[t]&&!done[t])));
      });
      var no=g.querySelector('.branch-no');if(no)no.classList.toggle('dim',!!br&&!mine);
    });
    Array.prototype.forEach.call(f.querySelectorAll('.net circle.node'),function(r){
      var shown=!br;
      (r.getAttribute('data-in')||'').split(' ').forEach(function(p){
        var bi=p.split(':');if(bi[0]===br&&(!line||now[bi[1]]||done[bi[1]]))shown=true;
      });
      r.classList.toggle('dim',!shown);
    });
    var ring=f.querySelector('.net .focus'),at=line&&line.getAttribute('data-at');
    if(ring){var xy=at?at.split(','):['-99','-99'];ring.setAttribute('cx',xy[0]);ring.setAttribute('cy',xy[1]);}
    if(line&&line.scrollIntoView)line.scrollIntoView({block:'nearest'});
    if(br)f.setAttribute('data-walk',wpos>=0?String(wpos):'branch '+br);else f.removeAttribute('data-walk');
  }
  function nextBranch(){
    var n=0;plines().forEach(function(l){n=Math.max(n,+l.getAttribute('data-branch'));});
    if(n)walk(-1,wbranch%n+1);
  }
  frames.forEach(function(f){
    Array.prototype.forEach.call(f.querySelectorAll('.proof .pl'),function(l,i){l.addEventListener('click',function(){walk(i,0);});});
    var on=function(c,fn){var b=f.querySelector(c);if(b)b.addEventListener('click',fn);};
    on('.w-prev',function(){walk(wpos-1,0);});
    on('.w-next',function(){walk(wpos+1,0);});
    on('.w-branch',nextBranch);
    on('.w-all',function(){walk(-1,0);});
  });
  items.forEach(function(li){li.addEventListener('click',function(){show(+li.getAttribute('data-frame'));});});
  document.addEventListener('keydown',function(e){
    var moves={ArrowRight:1,ArrowDown:1,PageDown:1,ArrowLeft:-1,ArrowUp:-1,PageUp:-1};
    if(e.key in moves){show(cur+moves[e.key]);e.preventDefault();}
    else if(e.key==='Home'){show(0);e.preventDefault();}
    else if(e.key==='End'){show(frames.length-1);e.preventDefault();}
    else if(e.key==='n'||e.key==='N'){walk(wpos+1,0);e.preventDefault();}
    else if(e.key==='p'||e.key==='P'){walk(wpos-1,0);e.preventDefault();}
    else if(e.key==='b'||e.key==='B'){nextBranch();e.preventDefault();}
    else if(e.key==='a'||e.key==='A'||e.key==='Escape'){walk(-1,0);e.preventDefault();}
  });
  var prev=document.getElementById('prev'),next=document.getElementById('next');
  if(prev)prev.addEventListener('click',function(){show(cur-1);});
  if(next)next.addEventListener('click',function(){show(cur+1);});
  function grid(){var f=frames[cur];var s=f&&f.querySelector('svg');return s?s.outerHTML:'';}
  var hash=location.hash.slice(1);
  if(hash==='selftest'){
    var results=[];
    show(0);var first=grid();
    document.dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowRight',bubbles:true}));
    results.push(frames.length<2||(cur===1&&grid()!==first));
    items[items.length-1].click();
    results.push(cur===frames.length-1);
    document.dispatchEvent(new KeyboardEvent('keydown',{key:'Home',bubbles:true}));
    results.push(cur===0&&grid()===first);
    var visible=frames.filter(function(f){return !f.hidden;}).length;
    results.push(visible===1);
    document.body.setAttribute('data-selftest',results.every(Boolean)?'pass':'fail '+results.join(','));
  } else if(/^walktest-[0-9]+$/.test(hash)){
    // steps through the net of frame K with the keys: each step must light other arrows and
    // another proof line, and only arrows of the line shown
    show(+hash.slice(9));
    var seen=[],ok=[];
    for(var i=0;i<3;i++){
      document.dispatchEvent(new KeyboardEvent('keydown',{key:'n',bubbles:true}));
      var f=frames[cur],line=f.querySelector('.proof .pl.cur'),want=set(line);
      var lit=Array.prototype.map.call(f.querySelectorAll('.net line.lit'),function(a){return a.getAttribute('data-to');});
      ok.push(!!line&&lit.every(function(t){return want[t];}));
      seen.push((line?line.textContent:'')+'|'+lit.sort().join(' ')+'|'+lit.length);
    }
    ok.push(seen[1]!==seen[2]&&!/\|0$/.test(seen[1])&&!/\|0$/.test(seen[2]));
    document.body.setAttribute('data-walktest',ok.every(Boolean)?'pass':'fail '+ok.join(',')+' '+seen.join(' / '));
  } else {
    var m=/^([0-9]+)(?:\.([0-9]+))?$/.exec(hash);
    show(m?+m[1]:0);
    if(m&&m[2]){walk(+m[2],0);window.scrollTo(0,0);}
  }
})();
