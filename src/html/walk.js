// A forcing net's proof in its frame, walked a line at a time (the line's arrows lit, the rest
// dimmed) or a branch at a time; all() shows the whole net again. The solve page and `lapiz
// serve`'s page both use it, one walker per frame; the frame's buttons and proof lines work.
function lapizNet(f){
  var wpos=-1,wbranch=0;
  var lines=f?Array.prototype.slice.call(f.querySelectorAll('.proof .pl')):[];
  var imps=lapizNet.imps;
  function walk(p,b){
    if(!f||!lines.length)return;
    wpos=Math.max(-1,Math.min(lines.length-1,p));wbranch=wpos>=0?0:b;
    var line=wpos>=0?lines[wpos]:null;
    var br=line?line.getAttribute('data-branch'):(wbranch?String(wbranch):null);
    var now=imps(line),done={};
    lines.forEach(function(l,i){
      var mine=l.getAttribute('data-branch')===br;
      if(line&&mine&&i<wpos){var s=imps(l);for(var x in s)done[x]=1;}
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
    var n=0;lines.forEach(function(l){n=Math.max(n,+l.getAttribute('data-branch'));});
    if(n)walk(-1,wbranch%n+1);
  }
  var net={
    next:function(){walk(wpos+1,0);},
    prev:function(){walk(wpos-1,0);},
    branch:nextBranch,
    all:function(){walk(-1,0);},
    to:function(i){walk(i,0);}
  };
  lines.forEach(function(l,i){l.addEventListener('click',function(){walk(i,0);});});
  var on=function(c,fn){var b=f&&f.querySelector(c);if(b)b.addEventListener('click',fn);};
  on('.w-prev',net.prev);
  on('.w-next',net.next);
  on('.w-branch',net.branch);
  on('.w-all',net.all);
  return net;
}
// the implications a proof line lights (its data-imps), as a set
lapizNet.imps=function(line){
  var s={};
  if(line)line.getAttribute('data-imps').split(' ').forEach(function(i){if(i)s[i]=1;});
  return s;
};
