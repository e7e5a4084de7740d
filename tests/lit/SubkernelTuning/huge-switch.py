# Writes a module whose subkernel __iss_sub_k_0 and whose helper @other
# each pick one of N constants by a switch of N cases into one phi (N from
# the command line), for switch-tables.ll.
import sys

n = int(sys.argv[1])
print('target triple = "x86_64-pc-linux-gnu"')
for name in ("__iss_sub_k_0", "other"):
    print(f"define i32 @{name}(i32 %i) {{")
    print("entry:")
    print(f"  switch i32 %i, label %done [")
    for c in range(n):
        print(f"    i32 {c}, label %c{c}")
    print("  ]")
    for c in range(n):
        print(f"c{c}:")
        print("  br label %done")
    print("done:")
    incoming = ", ".join(f"[ {(c * c * 31 + 7) % 10007}, %c{c} ]" for c in range(n))
    print(f"  %v = phi i32 [ -1, %entry ], {incoming}")
    print("  ret i32 %v")
    print("}")
