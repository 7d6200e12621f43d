"""(s19) After instrument.py (session 18's, unchanged): one timestamp per
HEC device round (rd), after the contraction's group sort (gsort), and
around the sorted rows' segmented sort (gather, segsort). Not committed
code. Usage: python3 instrument.py ROOT && python3 instrument_more.py ROOT"""
import sys
root = sys.argv[1]
def rep(p, old, new):
    p = root + '/' + p
    s = open(p).read(); assert s.count(old) == 1, (p, old); open(p, 'w').write(s.replace(old, new, 1))
rep('matching/hec.cu', '        if (m == 0)\n            break;\n        st->rounds++;\n',
    '        PROF("rd");\n        if (m == 0)\n            break;\n        st->rounds++;\n')
rep('contract/contract.cu', '    t.skey = dkeys.Current();\n', '    PROF("gsort");\n    t.skey = dkeys.Current();\n')
rep('contract/contract.cu', '    if (int rc = ws.run_cub(sort, "segmented sort", err))\n        return rc;\n',
    '    PROF("gather");\n    if (int rc = ws.run_cub(sort, "segmented sort", err))\n        return rc;\n    PROF("segsort");\n')
