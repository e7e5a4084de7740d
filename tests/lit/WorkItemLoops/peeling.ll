; iss-wi-loops, a conditional barrier: the region from the entry barrier
; has two exit barriers (the one iss-cond-barriers puts at the start of
; the arm, and the exit barrier), so work-item 0 runs it alone (the peeled
; copy, local id 0), and the others follow the exit it took in one of two
; loop nests whose innermost loop starts at 1 in 1D, at zext(all outer ids
; == 0) in 2D; the exit not taken branches to a wi.unreachable block. The
; tail block (a[l] += 3), reachable from the entry barrier and from the
; conditional one, is copied into each region (tail replication).
;
; __kernel void k(__global int *a, int n) {
;   size_t l = get_local_id(0);
;   if (n > 3) {
;     a[l] = 1;
;     barrier(CLK_GLOBAL_MEM_FENCE);
;   }
;   a[l] += 3;
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=8,2,1 -S %s | FileCheck %s --check-prefix=TWO

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %a, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  %c = icmp sgt i32 %n, 3
  br i1 %c, label %then, label %tail

then:
  store i32 1, ptr %p
  call void @pocl.barrier()
  br label %tail

tail:
  %v = load i32, ptr %p
  %v3 = add i32 %v, 3
  store i32 %v3, ptr %p
  ret void
}

declare void @pocl.barrier() noduplicate

; CHECK-LABEL: define void @__iss_sub_k_0(
; CHECK-NOT: call void @pocl.barrier
; The follows come first in the layout: each enters a loop nest.
; CHECK: [[F1:[a-z0-9.]+\.follow[0-9]*]]: {{.*}}preds = %[[K0:[a-z0-9.]+]]
; CHECK-NEXT: br label %[[H1:[a-z0-9.]+]]
; CHECK: [[F2:[a-z0-9.]+\.follow[0-9]*]]: {{.*}}preds = %[[T0:[a-z0-9.]+]]
; CHECK-NEXT: br label %[[H2:[a-z0-9.]+]]
; The peeled copy: local id 0; the branch goes to one of the two follows.
; CHECK: [[K0]]:
; CHECK: %[[C0:.*]] = icmp sgt i32 %n.val, 3
; CHECK-NEXT: br i1 %[[C0]], label %[[F1]], label %[[T0]]
; CHECK: [[T0]]:
; CHECK-NEXT: %[[P0:.*]] = getelementptr inbounds i32, ptr %a.val, i64 0
; CHECK-NEXT: %[[V0:.*]] = load i32, ptr %[[P0]]
; CHECK-NEXT: add i32 %[[V0]], 3
; CHECK: br label %[[F2]]
; Work-item 0 took the arm: the others follow it, from 1, and the tail
; path is unreachable for them.
; CHECK: [[H1]]:
; CHECK-NEXT: %[[ID1:[a-z0-9._]+]] = phi i64 [ 1, %[[F1]] ], [ %{{.*}}, %{{.*}} ]
; CHECK: icmp ult i64 %{{.*}}, 8
; CHECK: [[U1:wi.unreachable[0-9]*]]:
; CHECK-NEXT: unreachable
; CHECK: %[[C1:.*]] = icmp sgt i32 %n.val, 3
; CHECK-NEXT: br i1 %[[C1]], label %[[END1:[a-z0-9.]+]], label %[[T1:[a-z0-9.]+]]
; CHECK: [[T1]]:
; CHECK-NEXT: getelementptr inbounds i32, ptr %a.val, i64 %[[ID1]]
; CHECK: br label %[[U1]]
; Work-item 0 skipped the arm: the others follow it into the tail.
; CHECK: [[H2]]:
; CHECK-NEXT: %[[ID2:[a-z0-9._]+]] = phi i64 [ 1, %[[F2]] ], [ %{{.*}}, %{{.*}} ]
; CHECK: [[U2:wi.unreachable[0-9]*]]:
; CHECK-NEXT: unreachable
; CHECK: %[[C2:.*]] = icmp sgt i32 %n.val, 3
; CHECK-NEXT: br i1 %[[C2]], label %[[U2]], label %[[T2:[a-z0-9.]+]]
; CHECK: [[T2]]:
; CHECK-NEXT: %[[P2:.*]] = getelementptr inbounds i32, ptr %a.val, i64 %[[ID2]]
; CHECK-NEXT: %[[V2:.*]] = load i32, ptr %[[P2]]
; CHECK-NEXT: add i32 %[[V2]], 3
; The arm's region after the conditional barrier: all work-items from 0.
; CHECK: %[[ID3:[a-z0-9._]+]] = phi i64 [ 0, %{{.*}} ], [ %{{.*}}, %{{.*}} ]
; CHECK: %[[P3:.*]] = getelementptr inbounds i32, ptr %a.val, i64 %[[ID3]]
; CHECK-NEXT: store i32 1, ptr %[[P3]]
; The region after the barrier of the arm has its own copy of the tail.
; CHECK: %[[ID4:[a-z0-9._]+]] = phi i64 [ 0, %{{.*}} ], [ %{{.*}}, %{{.*}} ]
; CHECK: %[[P4:.*]] = getelementptr inbounds i32, ptr %a.val, i64 %[[ID4]]
; CHECK-NEXT: %[[V4:.*]] = load i32, ptr %[[P4]]
; CHECK-NEXT: add i32 %[[V4]], 3
; CHECK-NOT: call void @pocl.barrier
; CHECK: wg.exit:
; CHECK-NEXT: ret void

; In 2D the outer (y) loop of a follow nest starts at 0 and the inner (x)
; loop at 1 only when y is 0: work-item (0,0) is the peeled one.
; TWO-LABEL: define void @__iss_sub_k_0(
; TWO: [[F1:[a-z0-9.]+\.follow[0-9]*]]: {{.*}}preds = %[[K0:[a-z0-9.]+]]
; TWO-NEXT: br label %[[HY1:[a-z0-9.]+]]
; TWO: [[F2:[a-z0-9.]+\.follow[0-9]*]]: {{.*}}preds = %[[T0:[a-z0-9.]+]]
; TWO-NEXT: br label %[[HY2:[a-z0-9.]+]]
; TWO: [[HY1]]:
; TWO-NEXT: %[[Y1:[a-z0-9._]+]] = phi i64 [ 0, %[[F1]] ], [ %{{.*}}, %{{.*}} ]
; TWO-NEXT: %[[Z1:.*]] = icmp eq i64 %[[Y1]], 0
; TWO: %[[FIRST1:.*]] = zext i1 %{{.*}} to i64
; TWO-NEXT: br label %[[HX1:[a-z0-9.]+]]
; TWO: [[HX1]]:
; TWO-NEXT: %{{.*}} = phi i64 [ %[[FIRST1]], %[[HY1]] ], [ %{{.*}}, %{{.*}} ]
; TWO: icmp ult i64 %{{.*}}, 8
; TWO: icmp ult i64 %{{.*}}, 2
; TWO: [[HY2]]:
; TWO-NEXT: %[[Y2:[a-z0-9._]+]] = phi i64 [ 0, %[[F2]] ], [ %{{.*}}, %{{.*}} ]
; TWO-NEXT: %[[Z2:.*]] = icmp eq i64 %[[Y2]], 0
; TWO: %[[FIRST2:.*]] = zext i1 %{{.*}} to i64
; TWO-NEXT: br label %[[HX2:[a-z0-9.]+]]
; TWO: [[HX2]]:
; TWO-NEXT: %{{.*}} = phi i64 [ %[[FIRST2]], %[[HY2]] ], [ %{{.*}}, %{{.*}} ]
; The regions after the conditional barrier are not peeled.
; TWO: phi i64 [ 0, %{{.*}} ], [ %{{.*}}, %{{.*}} ]
; TWO-NEXT: br label %[[HX3:[a-z0-9.]+]]
; TWO: [[HX3]]:
; TWO-NEXT: phi i64 [ 0, %{{.*}} ], [ %{{.*}}, %{{.*}} ]
; TWO-NOT: wi.first
; TWO-NOT: call void @pocl.barrier
; TWO: wg.exit:
