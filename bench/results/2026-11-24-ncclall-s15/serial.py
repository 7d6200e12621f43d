import sys, collections
stacks=[]; cur=[]
for line in sys.stdin:
    line=line.strip()
    if not line:
        if cur: stacks.append(cur); cur=[]
        continue
    parts=line.split(None,1)
    cur.append((parts[1] if len(parts)>1 else '?').split('+')[0])
if cur: stacks.append(cur)
def has(s, name): return any(name in f for f in s)
lvl=[s for s in stacks if has(s,'dist_hierarchy_build')]
rd=[s for s in stacks if has(s,'dist_graph_read')]
for name, group in (('levels', lvl), ('read', rd)):
    par=sum(1 for s in group if has(s,'GOMP_parallel'))
    print(name, 'samples', len(group), 'in parallel regions', par, 'serial', len(group)-par)
