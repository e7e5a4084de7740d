; iss-barriers: the implicit barriers. The entry block keeps the static
; allocas (one SROA cannot remove: indexed by data) and branches to the
; entry barrier, alone in its block; the two returns become one exit block
; whose return the exit barrier precedes (SimplifyCFG has already
; merged the returns; the pass would otherwise). A kernel the module does not
; define is left unchanged.
;
; __kernel void k(__global int *a, int n) {
;   int t[4];
;   t[a[1] & 3] = n;
;   if (n > 3) { a[0] = t[0]; return; }
;   a[2] = t[1];
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers -iss-kernel=absent -iss-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=ABSENT

target triple = "x86_64-pc-linux-gnu"

define spir_kernel void @k(ptr %a, i32 %n) {
entry:
  %t = alloca [4 x i32], align 4
  %p1 = getelementptr inbounds i32, ptr %a, i64 1
  %x = load i32, ptr %p1
  %i = and i32 %x, 3
  %ii = zext i32 %i to i64
  %tp = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 %ii
  store i32 %n, ptr %tp
  %c = icmp sgt i32 %n, 3
  br i1 %c, label %early, label %late

early:
  %t0 = load i32, ptr %t
  store i32 %t0, ptr %a
  ret void

late:
  %tp1 = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 1
  %t1 = load i32, ptr %tp1
  %p2 = getelementptr inbounds i32, ptr %a, i64 2
  store i32 %t1, ptr %p2
  ret void
}

; CHECK-LABEL: define void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %t = alloca [4 x i32]
; CHECK-NEXT: br label %[[EB:.*]]
; CHECK: [[EB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %[[BODY:.*]]
; CHECK: [[BODY]]:
; CHECK-NOT: pocl.barrier
; CHECK: br i1 %c, label %early, label %late
; CHECK-NOT: pocl.barrier
; CHECK: [[EXIT:[a-z.]+]]: {{.*}}preds = %late, %early
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: ret void
; CHECK: early:
; CHECK-NOT: ret void
; CHECK: br label %[[EXIT]]
; CHECK: late:
; CHECK-NOT: ret void
; CHECK: br label %[[EXIT]]
; CHECK-NEXT: }
; CHECK: declare void @pocl.barrier() #[[ND:[0-9]+]]
; CHECK: attributes #[[ND]] = { noduplicate }

; ABSENT-NOT: pocl.barrier
; ABSENT: define spir_kernel void @k(
; ABSENT-NEXT: entry:
; ABSENT-NEXT: %t = alloca [4 x i32]
; ABSENT-NOT: pocl.barrier
