# closed-form peak compute buffer (bytes) vs measured, clip.cpp CPU backend
import re,glob
A=lambda x:(x+31)//32*32
MiB=lambda b:b/1048576
def pix(P,E,H,F,T,m,W,Hh,fa):
    nx,ny=W//P,Hh//P; N=nx*ny
    base=12*P*P*N+2*A(4*N)+4*T*(ny//m)
    ffn=12*E*N+12*F*N
    return base+(ffn if fa else max(16*E*N+4*H*N*N,ffn))
def llama4(P,E,H,F,img,fa):
    N=(img//P)**2; n=N+1
    base=12*P*P*N+2*A(4*n)
    return base+(12*E*n+4*F*n if fa else max(16*E*n+4*H*n*n,12*E*n+4*F*n))
def gemma3(P,E,H,F,img,fa):
    N=(img//P)**2
    return 12*E*N+4*F*N if fa else 24*E*N+4*H*N*N
def voxtral(E,H,F,frames,fa):
    n=frames//2
    return 12*E*n+4*F*n if fa else 16*E*n+4*H*n*n
def gemma4(P,E,H,F,img,fa):
    N=(img//P)**2
    raw=12*P*P*N; pos=2*A(4*N)
    if 12*P*P>=4*E:   # inp_raw slot reusable by an [E,N] f32 tensor (E2B)
        return raw+pos+4*E*N+12*F*N if fa else pos+20*E*N+4*H*N*N
    else:             # 26B
        return raw+pos+8*E*N+12*F*N if fa else raw+pos+22*E*N+4*H*N*N
def qwen25vl(P,E,H,F,img,fa):
    N=(img//P)**2
    common=12*P*P*N+A(N)+16*N+4*N*N+A(N)   # inp_raw slot + inv_window_idx + positions + f32 window_mask + window_idx
    return common+(16*E*N+2*N*N+4*F*N if fa else 20*E*N+4*H*N*N)
rows=[]
meas={}
for f in glob.glob('res-*.txt'):
    for l in open(f):
        m=re.search(r'file=gguf/(\S+)\.gguf fa=(\d) img=(\S+) .*compute_bytes=(\d+)',l)
        if m: meas[(m.group(1),int(m.group(2)),m.group(3))]=int(m.group(4))
warm={'mistral-small-3.1':'448x448','ministral-3-3b':'448x448','pixtral-12b':'256x256','llama4':'336x336','llama4-448':'448x448','llama4-672':'672x672',
      'gemma3':'896x896','qwen25vl':'1288x1288','gemma4-e2b':'768x768','gemma4-26b':'768x768','voxtral-mini':'3000 frames'}
def pred(k,fa,sz):
    if k in('mistral-small-3.1','ministral-3-3b','pixtral-12b'):
        P,T,m={'mistral-small-3.1':(14,5120,2),'ministral-3-3b':(14,3072,2),'pixtral-12b':(16,5120,1)}[k]
        w,h=map(int,sz.split('x')); return pix(P,1024,16,4096,T,m,w,h,fa)
    if k.startswith('llama4'): return llama4(14,1408,16,5632,int(sz.split('x')[0]),fa)
    if k=='gemma3': return gemma3(14,1152,16,4304,896,fa)
    if k=='voxtral-mini': return voxtral(1280,20,5120,3000,fa)
    if k=='gemma4-e2b': return gemma4(16,768,12,3072,768,fa)
    if k=='gemma4-26b': return gemma4(16,1152,16,4304,768,fa)
    if k=='qwen25vl': return qwen25vl(14,1280,16,3420,1288,fa)
    return None
order=['gemma3','qwen25vl','mistral-small-3.1','ministral-3-3b','pixtral-12b','llama4','llama4-448','llama4-672','gemma4-e2b','gemma4-26b','voxtral-mini']
print('| model | warm-up / image | patches N (pos n) | FA | measured MiB | measured bytes | formula bytes | match |')
print('|---|---|---|---|---|---|---|---|')
for k in order:
    ks=sorted([x for x in meas if x[0]==k], key=lambda x:(x[2]!='warmup', int(x[2].split('x')[0]) if x[2]!='warmup' else 0, x[1]))
    for (_,fa,img) in ks:
        if img=='448x448' and k in('mistral-small-3.1',) : pass
        sz=warm[k] if img=='warmup' else img
        b=meas[(k,fa,img)]; p=pred(k,fa,sz)
        lab=('warm-up '+sz) if img=='warmup' else ('encode '+sz)
        Pz={'pixtral-12b':16,'gemma4-e2b':16,'gemma4-26b':16}.get(k,14)
        if k=='voxtral-mini': nn='n=1500'
        else:
            w,h=map(int,sz.split('x')); N=(w//Pz)*(h//Pz); nn=('%d (n=%d)'%(N,N+1)) if k.startswith('llama4') else str(N)
        print('| %s | %s | %s | %s | %.2f | %d | %s | %s |'%(k,lab,nn,'on' if fa else 'off',MiB(b),b,'-' if p is None else '%d'%p,'-' if p is None else ('exact' if p==b else 'diff %+d'%(p-b))))
