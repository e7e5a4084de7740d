; print<iss-model> on a guard against the global sizes (the AMD APP SDK's
; SobelFilter: the one-pixel border of the NDRange skipped), local size
; 64x4, 16 lanes. The tests that only choose a faster path (a work group
; that lies in one range; bounds the same in every row) keep the disjuncts
; that hold in some launch without a global offset, where a group starts
; at O_d = L_d * G_d below L_d * N_d: a group past the NDRange's edge, or
; whose edge falls inside it, exists only with an offset, and computes
; its bounds per row, which is always right. The ranges themselves stay
; exact for every offset.
;
; __kernel void edge(__global float *out) {
;   size_t x = get_global_id(0), y = get_global_id(1);
;   if (x >= 1 && x < get_global_size(0) - 1 && y >= 1 &&
;       y < get_global_size(1) - 1)
;     out[x] = 1.0f;
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=edge -iss-local-size=64,4,1 -iss-vector-width=16 -o /dev/null %s 2>&1 | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64
@_group_id_x = external global i64
@_group_id_y = external global i64
@_global_offset_x = external global i64
@_global_offset_y = external global i64
@_num_groups_x = external global i64
@_num_groups_y = external global i64

define spir_kernel void @edge(ptr %out) {
entry:
  %offx = load i64, ptr @_global_offset_x
  %gidx = load i64, ptr @_group_id_x
  %basex = mul i64 64, %gidx
  %g0x = add i64 %offx, %basex
  %lidx = load i64, ptr @_local_id_x
  %x = add i64 %g0x, %lidx
  %offy = load i64, ptr @_global_offset_y
  %gidy = load i64, ptr @_group_id_y
  %basey = mul i64 4, %gidy
  %g0y = add i64 %offy, %basey
  %lidy = load i64, ptr @_local_id_y
  %y = add i64 %g0y, %lidy
  %nx = load i64, ptr @_num_groups_x
  %ny = load i64, ptr @_num_groups_y
  %w = mul i64 64, %nx
  %h = mul i64 4, %ny
  %w1 = add i64 %w, -1
  %h1 = add i64 %h, -1
  %left = icmp uge i64 %x, 1
  %right = icmp ult i64 %x, %w1
  %top = icmp uge i64 %y, 1
  %bottom = icmp ult i64 %y, %h1
  %c0 = and i1 %left, %right
  %c1 = and i1 %top, %bottom
  %c = and i1 %c0, %c1
  br i1 %c, label %then, label %end

then:
  %p = getelementptr inbounds float, ptr %out, i64 %x
  store float 1.0, ptr %p
  br label %end

end:
  ret void
}

; CHECK-LABEL: region entry.barrier, dimension x, width 16:
; The ranges are exact for any offset: the image's right edge may fall
; anywhere in a group (64 N_x <= O_x + 49).
; CHECK: ranges of x:
; CHECK-NEXT: [0, {{.*}}O_x + 49 >= 64 * N_x{{.*}}): piece 1
; Only the interior group is one range's whole; the groups past the
; NDRange's bottom or right edge (4 N_y <= 1 + O_y, 64 N_x <= 1 + O_x) are
; not tested.
; CHECK: range 0 is the whole work group where: {  : false }
; CHECK: range 2 is the whole work group where: [O_x, O_y, N_y, N_x] -> {  : O_x > 0 and O_y > 0 and 4N_y >= 5 + O_y and 64N_x >= 65 + O_x }
; CHECK: range 4 is the whole work group where: {  : false }
; The rows are cut alike where all four are inside the image, in the
; groups of the left edge (O_x = 0) and the others alike.
; CHECK-NEXT: bounds the same in every row where: [O_y, N_y] -> {  : O_y > 0 and 4N_y >= 5 + O_y }
