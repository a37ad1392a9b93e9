import struct, sys, os
KIND = dict(INT=1, PTR=2, ARRAY=3, STRUCT=4, UNION=5, TYPEDEF=8)
class B:
    def __init__(s): s.types=b''; s.strs=b'\0'; s.n=0
    def name(s, n):
        if not n: return 0
        off=len(s.strs); s.strs+=n.encode()+b'\0'; return off
    def add(s, raw): s.types+=raw; s.n+=1; return s.n
    def int_(s, name, size=4):
        return s.add(struct.pack('<IIII', s.name(name), KIND['INT']<<24, size, size*8))
    def ref(s, kind, typ, name=None):
        return s.add(struct.pack('<III', s.name(name), KIND[kind]<<24, typ))
    def comp(s, kind, name, size, members):  # members: (name, type, bitoff)
        raw=struct.pack('<III', s.name(name), (KIND[kind]<<24)|len(members), size)
        for (mn, mt, mo) in members: raw+=struct.pack('<III', s.name(mn), mt, mo)
        return s.add(raw)
    def blob(s):
        hdr=struct.pack('<HBBIIIII', 0xeB9F, 1, 0, 24, 0, len(s.types), len(s.types), len(s.strs))
        return hdr+s.types+s.strs
out=sys.argv[1]
def w(name, b): open(os.path.join(out, name),'wb').write(b.blob())
# 1: a member type id past the last type
b=B(); i=b.int_('int'); b.comp('STRUCT','page_counter',8,[('a',i,0),('b',99,32)]); w('oob-type-id.btf', b)
# 2: a struct that contains itself
b=B(); i=b.int_('int'); b.comp('STRUCT','page_counter',8,[('a',i,0),('b',2,32)]); w('self-struct.btf', b)
# 3: two structs that contain each other
b=B(); i=b.int_('int'); b.comp('STRUCT','page_counter',8,[('a',i,0),('p',3,32)]); b.comp('STRUCT','pong',8,[('a',i,0),('p',2,32)]); w('mutual-structs.btf', b)
# 4: an anonymous union that contains its own struct
b=B(); i=b.int_('int'); b.comp('STRUCT','page_counter',8,[('a',i,0),(None,3,32)]); b.comp('UNION',None,4,[('s',2,0),('x',i,0)]); w('anon-union-cycle.btf', b)
# 5: a cycle of pointer types
b=B(); p1=b.ref('PTR',2); p2=b.ref('PTR',1); b.comp('STRUCT','page_counter',8,[('p',p1,0)]); w('pointer-cycle.btf', b)
# 6: a cycle of typedefs
b=B(); i=b.int_('int'); b.ref('TYPEDEF',3,'ta'); b.ref('TYPEDEF',2,'tb'); b.comp('STRUCT','page_counter',8,[('a',i,0),('t',2,32)]); w('typedef-cycle.btf', b)
# 7: 24 levels of a struct holding two of the one below (2^24 paths)
b=B(); i=b.int_('int'); prev=b.comp('STRUCT','d0',4,[('a',i,0)]); size=4
for d in range(1,25):
    prev=b.comp('STRUCT','d%d'%d if d<24 else 'page_counter',size*2,[('a',prev,0),('b',prev,size*8)]); size*=2
w('deep-doubling.btf', b)
