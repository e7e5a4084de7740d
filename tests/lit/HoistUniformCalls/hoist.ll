; iss-hoist-uniform: a call of a function that touches no memory
; (iss-prepare keeps it out of line) whose arguments are the same for every
; work-item runs once per work group: LICM hoists it out of the work-item
; loop, even in front of a per-work-item early return. A call whose
; argument depends on the work-item stays in the loop. Afterwards every
; call is inlined: the hoisted one in front of the loop, the other inside.
;
; __kernel void k(__global float *y, float r, float e, int n) {
;   float s = powlike(r, e);        // uniform
;   int g = get_global_id(0);
;   if (g >= n) return;
;   y[g] = s + powlike((float)g, e);  // per work-item
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops,iss-hoist-uniform -iss-kernel=k -iss-local-size=64,1,1 -S %s | FileCheck %s
; Negative: without iss-hoist-uniform the uniform call stays in the loop.
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=64,1,1 -S %s | FileCheck %s --check-prefix=LOOP

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_group_id_x = external global i64

define internal float @powlike(float %x, float %e) #0 {
entry:
  %neg = fcmp olt float %x, 0.0
  br i1 %neg, label %small, label %big

small:
  %a = fmul float %x, %e
  br label %done

big:
  %b = fadd float %x, %e
  br label %done

done:
  %r = phi float [ %a, %small ], [ %b, %big ]
  ret float %r
}

define spir_kernel void @k(ptr %y, float %r, float %e, i32 %n) #0 {
entry:
  %s = call float @powlike(float %r, float %e) #0
  %l = load i64, ptr @_local_id_x
  %grp = load i64, ptr @_group_id_x
  %base = mul i64 %grp, 64
  %g64 = add i64 %base, %l
  %g = trunc i64 %g64 to i32
  %out = icmp sge i32 %g, %n
  br i1 %out, label %exit, label %work

work:
  %gf = sitofp i32 %g to float
  %t = call float @powlike(float %gf, float %e) #0
  %v = fadd float %s, %t
  %p = getelementptr inbounds float, ptr %y, i64 %g64
  store float %v, ptr %p
  br label %exit

exit:
  ret void
}

attributes #0 = { convergent }

; CHECK-LABEL: define void @__iss_sub_k_0(
; CHECK: region0:
; CHECK-NEXT: %neg.i{{[0-9]*}} = fcmp olt float %r.val, 0.000000e+00
; CHECK: wi.x.header:
; CHECK-NOT: fcmp olt float %r.val
; CHECK: %neg.i{{[0-9]*}} = fcmp olt float %gf, 0.000000e+00
; CHECK-NOT: fcmp olt float %r.val
; CHECK: wg.exit:
; CHECK-NOT: call float @powlike

; LOOP-LABEL: define void @__iss_sub_k_0(
; LOOP: wi.x.header:
; LOOP: %s = call float @powlike(float %r.val, float %e.val)
; LOOP: "iss-inline-late"
