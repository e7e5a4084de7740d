; iss-hoist-uniform inlines callees before callers, as LLVM's inliner does:
; a function that touches no memory gets the functions it calls inlined and
; its locals promoted once, and only then is it copied into the subkernel.
; The input is what clang gives without optimization (locals in allocas),
; the shape of pocl's kernel/test_hadd helpers, which call hadd and rhadd.
; Promoting every copy's locals at once in the subkernel would take time
; quadratic in the number of calls for a kernel calling thousands of such
; functions (FrontHalfTest). The uniform call twice(r) still runs once per
; work group, with what twice calls; boxed's local, passed to peek (which
; reads memory, so is inlined early, not late), is promoted once peek is
; inlined into boxed.
;
; int half(int x) { int t = x; return t >> 1; }
; int twice(int x) { int u = x; return half(u) + half(u + 1); }
; int peek(const int *p) { return *p; }
; int boxed(int x) { int b = x; return peek(&b) + 1; }
; __kernel void k(__global int *y, int r) {
;   int g = get_global_id(0);
;   y[g] = twice(r) + twice(g) + boxed(g);
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops,iss-hoist-uniform -iss-kernel=k -iss-local-size=64,1,1 -S %s | FileCheck %s
; Negative: before iss-hoist-uniform, the helpers are calls and their
; locals allocas.
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=64,1,1 -S %s | FileCheck %s --check-prefix=LATE

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_group_id_x = external global i64

define internal i32 @half(i32 %x) #1 {
entry:
  %t = alloca i32, align 4
  store i32 %x, ptr %t, align 4
  %v = load i32, ptr %t, align 4
  %s = ashr i32 %v, 1
  ret i32 %s
}

define internal i32 @twice(i32 %x) #1 {
entry:
  %u = alloca i32, align 4
  store i32 %x, ptr %u, align 4
  %a = load i32, ptr %u, align 4
  %h1 = call i32 @half(i32 %a) #1
  %b = load i32, ptr %u, align 4
  %b1 = add nsw i32 %b, 1
  %h2 = call i32 @half(i32 %b1) #1
  %r = add nsw i32 %h1, %h2
  ret i32 %r
}

define internal i32 @peek(ptr %p) #1 {
entry:
  %v = load i32, ptr %p, align 4
  ret i32 %v
}

define internal i32 @boxed(i32 %x) #1 {
entry:
  %b = alloca i32, align 4
  store i32 %x, ptr %b, align 4
  %v = call i32 @peek(ptr %b) #1
  %r = add nsw i32 %v, 1
  ret i32 %r
}

define spir_kernel void @k(ptr %y, i32 %r) #0 {
entry:
  %l = load i64, ptr @_local_id_x
  %grp = load i64, ptr @_group_id_x
  %base = mul i64 %grp, 64
  %g64 = add i64 %base, %l
  %g = trunc i64 %g64 to i32
  %u = call i32 @twice(i32 %r) #0
  %w = call i32 @twice(i32 %g) #0
  %x = call i32 @boxed(i32 %g) #0
  %uw = add nsw i32 %u, %w
  %v = add nsw i32 %uw, %x
  %p = getelementptr inbounds i32, ptr %y, i64 %g64
  store i32 %v, ptr %p, align 4
  ret void
}

attributes #0 = { convergent }
attributes #1 = { nounwind }

; The uniform twice(r), half included, in front of the work-item loop; the
; per-work-item calls inside it, boxed's local promoted; no local, call or
; helper left.
; CHECK-NOT: define {{.*}}@half(
; CHECK-NOT: define {{.*}}@twice(
; CHECK-NOT: define {{.*}}@boxed(
; CHECK-LABEL: define void @__iss_sub_k_0(
; CHECK-NOT: alloca
; CHECK: region0:
; CHECK-DAG: %[[RH1:[^ ]+]] = ashr i32 %r.val, 1
; CHECK-DAG: %[[R1:[^ ]+]] = add nsw i32 %r.val, 1
; CHECK-DAG: %[[RH2:[^ ]+]] = ashr i32 %[[R1]], 1
; CHECK: %[[RTW:[^ ]+]] = add nsw i32 %[[RH1]], %[[RH2]]
; CHECK: wi.x.header:
; CHECK-NOT: %r.val
; CHECK-NOT: alloca
; CHECK-NOT: call
; CHECK: %[[H1:[^ ]+]] = ashr i32 %g, 1
; CHECK-NEXT: %[[G1:[^ ]+]] = add nsw i32 %g, 1
; CHECK-NEXT: %[[H2:[^ ]+]] = ashr i32 %[[G1]], 1
; CHECK-NEXT: %[[TW:[^ ]+]] = add nsw i32 %[[H1]], %[[H2]]
; CHECK-NEXT: %[[BOX:[^ ]+]] = add nsw i32 %g, 1
; CHECK-NEXT: %[[UW:[^ ]+]] = add nsw i32 %[[RTW]], %[[TW]]
; CHECK-NEXT: add nsw i32 %[[UW]], %[[BOX]]
; CHECK-NOT: alloca
; CHECK-NOT: call
; CHECK: wg.exit:
; CHECK-NOT: call
; CHECK: ret void
; CHECK-NOT: define {{.*}}@half(
; CHECK-NOT: define {{.*}}@twice(
; CHECK-NOT: define {{.*}}@boxed(

; LATE: define internal i32 @half(
; LATE-NEXT: entry:
; LATE-NEXT: %t = alloca i32
; LATE: define internal i32 @twice(
; LATE: call i32 @half(
; LATE: define internal i32 @boxed(
; LATE: call i32 @peek(
; LATE-LABEL: define void @__iss_sub_k_0(
; LATE: wi.x.header:
; LATE: call i32 @twice(i32 %r.val)
; LATE: call i32 @twice(i32 %g)
; LATE: call i32 @boxed(i32 %g)
