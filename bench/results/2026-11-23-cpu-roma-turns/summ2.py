import sys,re,collections,statistics
rows={}
for f in sys.argv[1:]:
  for l in open(f):
    if 'gto=' not in l: continue
    d=dict(re.findall(r'(\w+)=(\S+)',l))
    wt=re.search(r'weights=(\w+)',l).group(1)
    rows[(wt,d['start'],d['inst'],int(d['seed']),d['T'],d['RP'],d['algo'])]=(float(d['gto']), int(d['phases']), int(d['evaluated']), int(d['passes']))
keys=set((k[0],k[1],k[4],k[5]) for k in rows)
for wt,st,T,P in sorted(keys):
    seeds=sorted(set(k[3] for k in rows if k[0]==wt and k[4]==T and k[5]==P))
    rs=[];S=[];Pm=[];ev=[];evs=[];ph=[]
    for inst in sorted(set(k[2] for k in rows if k[0]==wt and k[4]==T and k[5]==P)):
        s=[rows[(wt,st,inst,k,T,P,'roma_seq')][0] for k in seeds]
        p=[rows[(wt,st,inst,k,T,P,'roma_replay_cpu')][0] for k in seeds]
        ev+=[rows[(wt,st,inst,k,T,P,'roma_replay_cpu')][2] for k in seeds]
        evs+=[rows[(wt,st,inst,k,T,P,'roma_seq')][2]/2 for k in seeds]
        ph+=[rows[(wt,st,inst,k,T,P,'roma_replay_cpu')][1] for k in seeds]
        rs.append(statistics.mean(p)/statistics.mean(s)); S+=s; Pm+=p
    print(f"{wt:11s} {st:9s} T={T} P={P:6s} n_seeds={len(seeds)} seq={statistics.mean(S):.3g} par={statistics.mean(Pm):.3g} pooled={statistics.mean(Pm)/statistics.mean(S):.3f} per-inst={' / '.join('%.3f'%r for r in rs)} phases={min(ph)}-{max(ph)} evaluated/seq-edge-evals={statistics.mean(ev)/statistics.mean(evs):.2f}")
