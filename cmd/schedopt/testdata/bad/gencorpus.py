# Regenerates the bad-input corpus and MANIFEST.tsv from the sample instances:
#   python3 cmd/schedopt/testdata/bad/gencorpus.py
import json, os, copy
R=os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))
out=os.path.dirname(os.path.abspath(__file__))
bases={
 'dlt-flat':'dlt-flat-table3.4-V10000.json',
 'dlt-single':'dlt-single-table5.1-mintime.json',
 'dlt-multi':'dlt-multi-tiny-m3-n4.json',
 'stencil':'stencil-small.json',
 'workload':'workload-small.json',
 'partition':'partition-la-i7750-divisible-min-time.json',
}
# per kind: (a numeric path, an array field, a nested numeric path in first element, a typo of a top-level field)
spec={
 'dlt-flat':   dict(num=['V'], arr='machines', nested=['machines',0,'a'], typo=('objective','objectiv'), neg=['machines',1,'S']),
 'dlt-single': dict(num=['V'], arr=None, nested=['rho'], typo=('rho','rh0'), neg=['a1']),
 'dlt-multi':  dict(num=['V'], arr='machines', nested=['machines',1,'rho'], typo=('P0N','P0n'), neg=['machines',2,'PI']),
 'stencil':    dict(num=['round_time'], arr='processors', nested=['processors',0,'time_per_cell'], typo=('deadline','deadlien'), neg=['tasks',1,'cells']),
 'workload':   dict(num=['n'], arr='processors', nested=['processors',0,'points',1,'time'], typo=('static_power','static_pwer'), neg=['processors',0,'points',0,'energy']),
 'partition':  dict(num=['processors',0,'static_power'], arr='portions', nested=['portions',0,'flops'], typo=('objective','Objective'), neg=['processors',1,'time_per_byte']),
}
def pstr(path):
    s=''
    for p in path:
        if isinstance(p,int): s+='[%d]'%p
        else: s+=('.' if s else '')+p
    return s
def setp(d,path,v):
    for p in path[:-1]: d=d[p]
    d[path[-1]]=v
def getp(d,path):
    for p in path: d=d[p]
    return d
def delp(d,path):
    for p in path[:-1]: d=d[p]
    del d[path[-1]]
cases=[]
def add(name, body, field, reason, cmd='solve'):
    fn=name+('.mps' if cmd=='solve-mps' else '.json')
    if body is not None:
        open(os.path.join(out,fn),'w').write(body)
    cases.append((fn,cmd,field,reason))
MARK='"__MARK__"'
for kind,base in bases.items():
    d=json.load(open(os.path.join(R,'instances',base)))
    s=spec[kind]; k=kind
    def dump(x): return json.dumps(x, indent=1)
    # 1 typo in a top-level field
    e=copy.deepcopy(d); v=e.pop(s['typo'][0]) if s['typo'][0] in e else 1
    e[s['typo'][1]]=v
    add(k+'-typo-field', dump(e), s['typo'][1], 'did you mean "%s"?'%s['typo'][0])
    # 2 unknown nested field
    e=copy.deepcopy(d)
    if s['arr']:
        e[s['arr']][0]['colour']='blue'; f=s['arr']+'[0].colour'
    else:
        e['colour']='blue'; f='colour'
    add(k+'-unknown-field', dump(e), f, 'unknown field "colour"')
    # 3 duplicate key
    e=copy.deepcopy(d); setp(e,s['num'],'__DUP__')
    txt=dump(e).replace('"__DUP__"', json.dumps(getp(d,s['num']))+', "%s": 7'%s['num'][-1])
    add(k+'-duplicate-key', txt, pstr(s['num']), 'duplicate key')
    # 4 trailing data
    add(k+'-trailing-object', dump(d)+'\n{"kind":"%s"}\n'%k, '', 'data after the top-level value')
    add(k+'-trailing-garbage', dump(d)+' ,', '', 'data after the top-level value')
    # 5 wrong type: string for a number
    e=copy.deepcopy(d); setp(e,s['nested'],str(getp(d,s['nested'])))
    add(k+'-string-for-number', dump(e), pstr(s['nested']), 'must be a number')
    # 6 NaN
    e=copy.deepcopy(d); setp(e,s['nested'],'__NAN__')
    add(k+'-nan', dump(e).replace('"__NAN__"','NaN'), pstr(s['nested']), 'NaN')
    # 7 overflowing value
    e=copy.deepcopy(d); setp(e,s['nested'],'__BIG__')
    add(k+'-huge-value', dump(e).replace('"__BIG__"','1e308'), pstr(s['nested']), 'out of range')
    # 8 tiny value
    e=copy.deepcopy(d); setp(e,s['nested'],'__T__')
    add(k+'-tiny-value', dump(e).replace('"__T__"','1e-300'), pstr(s['nested']), 'out of range')
    # 9 negative value
    e=copy.deepcopy(d); setp(e,s['neg'],-1)
    add(k+'-negative', dump(e), pstr(s['neg']), '')
    # 10 missing field
    e=copy.deepcopy(d); delp(e,s['nested'])
    add(k+'-missing-field', dump(e), pstr(s['nested']) if kind not in ('stencil',) else None, '')
    # 11 deep nesting
    e=copy.deepcopy(d); setp(e,s['num'],'__DEEP__')
    add(k+'-deep-nesting', dump(e).replace('"__DEEP__"','['*200+']'*200), pstr(s['num'])+'[0]'*(64-len(s['num'])), 'nested deeper than 64')
    # 12 truncated
    txt=dump(d); add(k+'-truncated', txt[:len(txt)//2], None, 'invalid JSON')
    # 13 object for an array / array for object
    if s['arr']:
        e=copy.deepcopy(d); e[s['arr']]={'x':1}
        add(k+'-object-for-array', dump(e), s['arr'], 'must be an array')
    # 14 wrong kind value type
    e=copy.deepcopy(d); e['kind']=['x']
    # skip: registry reads kind
for name,body,field,reason in [
 ('empty',' ','', 'invalid JSON'),
 ('top-level-array','[{"kind":"workload"}]','', 'must be an object, got JSON array'),
 ('missing-kind','{"name":"x"}','kind','missing'),
 ('unknown-kind','{"kind":"dlt-mutli"}','kind','unknown kind "dlt-mutli"'),
 ('kind-not-a-string','{"kind":3}','kind', 'must be a string'),
 ('binary-garbage','\x00\x01\x02PK\x03\x04','', 'invalid JSON'),
]:
    add('any-'+name, body, field, reason)
add('any-no-such-file', None, '', 'no such file')
# size limits (exit 2 before anything is built)
d=json.load(open(os.path.join(R,'instances',bases['dlt-multi']))); d['n']=100000
add('dlt-multi-too-many-installments', json.dumps(d), '-', 'nonzeros (about')
d=json.load(open(os.path.join(R,'instances',bases['dlt-single']))); d['m']=1000000000
add('dlt-single-too-many-machines', json.dumps(d), '-', 'SCHEDOPT_NO_LIMITS=1')
# MPS cases the reader refuses today
add('mps-no-such-file', None, '', 'no such file', 'solve-mps')
add('mps-unknown-section', 'NAME x\nROWS\n N obj\nFOOBAR\nENDATA\n', '', '', 'solve-mps')
add('mps-nan', 'NAME x\nROWS\n N obj\n L c1\nCOLUMNS\n x obj 1 c1 NaN\nRHS\n rhs c1 1\nENDATA\n', '', '', 'solve-mps')
add('mps-unknown-row', 'NAME x\nROWS\n N obj\n L c1\nCOLUMNS\n x obj 1 c9 1\nRHS\n rhs c1 1\nENDATA\n', '', '', 'solve-mps')
with open(os.path.join(out,'MANIFEST.tsv'),'w') as f:
    f.write('# file\tcommand\tfield (- when the error is for the whole file, * when not checked)\treason substring\n')
    for fn,cmd,field,reason in cases:
        f.write('%s\t%s\t%s\t%s\n'%(fn,cmd,'*' if field is None else (field or '-'),reason))
print(len(cases))
