
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
    nets[k].all();
  }
  // each frame's forcing net, walked a line or a branch at a time (walk.js)
  var nets=frames.map(lapizNet);
  items.forEach(function(li){li.addEventListener('click',function(){show(+li.getAttribute('data-frame'));});});
  document.addEventListener('keydown',function(e){
    var moves={ArrowRight:1,ArrowDown:1,PageDown:1,ArrowLeft:-1,ArrowUp:-1,PageUp:-1};
    if(e.key in moves){show(cur+moves[e.key]);e.preventDefault();}
    else if(e.key==='Home'){show(0);e.preventDefault();}
    else if(e.key==='End'){show(frames.length-1);e.preventDefault();}
    else if(e.key==='n'||e.key==='N'){nets[cur].next();e.preventDefault();}
    else if(e.key==='p'||e.key==='P'){nets[cur].prev();e.preventDefault();}
    else if(e.key==='b'||e.key==='B'){nets[cur].branch();e.preventDefault();}
    else if(e.key==='a'||e.key==='A'||e.key==='Escape'){nets[cur].all();e.preventDefault();}
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
      var f=frames[cur],line=f.querySelector('.proof .pl.cur'),want=lapizNet.imps(line);
      var lit=Array.prototype.map.call(f.querySelectorAll('.net line.lit'),function(a){return a.getAttribute('data-to');});
      ok.push(!!line&&lit.every(function(t){return want[t];}));
      seen.push((line?line.textContent:'')+'|'+lit.sort().join(' ')+'|'+lit.length);
    }
    ok.push(seen[1]!==seen[2]&&!/\|0$/.test(seen[1])&&!/\|0$/.test(seen[2]));
    document.body.setAttribute('data-walktest',ok.every(Boolean)?'pass':'fail '+ok.join(',')+' '+seen.join(' / '));
  } else {
    var m=/^([0-9]+)(?:\.([0-9]+))?$/.exec(hash);
    show(m?+m[1]:0);
    if(m&&m[2]){nets[cur].to(+m[2]);window.scrollTo(0,0);}
  }
})();
