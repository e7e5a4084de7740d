; iss-prepare: the work-item functions with a dimension argument answer a
; dimension of 3 or more as OpenCL C 1.2 (section 6.12.1) says, 1 for the
; sizes and group counts, 0 for ids and offsets, whatever the library
; answers (pocl 3.1's get_global_size, get_local_size and get_num_groups
; return 0 there). Each defined one is wrapped; a constant dimension folds
; once inlined, a variable one (7, UINT_MAX) gets a select.
;
; __kernel void k(__global ulong *out, uint d) {
;   out[0] = get_global_size(1); out[1] = get_global_size(3);
;   out[2] = get_global_size(d); out[3] = get_global_offset(7);
;   out[4] = get_num_groups(d);  out[5] = get_group_id(d);
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=INLINED
; RUN: pocl-iss-opt -passes=iss-prepare,iss-prepare -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=TWICE
; RUN: pocl-iss-opt -passes=iss-prepare -iss-kernel=absent -iss-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=ABSENT

target triple = "x86_64-pc-linux-gnu"

@_local_size_x = external global i64
@_local_size_y = external global i64
@_local_size_z = external global i64
@_num_groups_x = external global i64
@_num_groups_y = external global i64
@_num_groups_z = external global i64
@_global_offset_x = external global i64

; As in pocl 3.1's library: a switch whose default is 0.
define i64 @_Z15get_global_sizej(i32 %0) {
  switch i32 %0, label %d [
    i32 0, label %x
    i32 1, label %y
    i32 2, label %z
  ]
x:
  %lx = load i64, ptr @_local_size_x
  %nx = load i64, ptr @_num_groups_x
  %gx = mul i64 %nx, %lx
  br label %d
y:
  %ly = load i64, ptr @_local_size_y
  %ny = load i64, ptr @_num_groups_y
  %gy = mul i64 %ny, %ly
  br label %d
z:
  %lz = load i64, ptr @_local_size_z
  %nz = load i64, ptr @_num_groups_z
  %gz = mul i64 %nz, %lz
  br label %d
d:
  %r = phi i64 [ %gx, %x ], [ %gy, %y ], [ %gz, %z ], [ 0, %1 ]
  ret i64 %r
}

define i64 @_Z14get_num_groupsj(i32 %0) {
  switch i32 %0, label %d [
    i32 0, label %x
    i32 1, label %y
    i32 2, label %z
  ]
x:
  %nx = load i64, ptr @_num_groups_x
  br label %d
y:
  %ny = load i64, ptr @_num_groups_y
  br label %d
z:
  %nz = load i64, ptr @_num_groups_z
  br label %d
d:
  %r = phi i64 [ %nx, %x ], [ %ny, %y ], [ %nz, %z ], [ 0, %1 ]
  ret i64 %r
}

define i64 @_Z17get_global_offsetj(i32 %0) {
  %c = icmp eq i32 %0, 0
  br i1 %c, label %x, label %d
x:
  %ox = load i64, ptr @_global_offset_x
  br label %d
d:
  %r = phi i64 [ %ox, %x ], [ 0, %1 ]
  ret i64 %r
}

; Only declared: nothing to wrap.
declare i64 @_Z12get_group_idj(i32)

define spir_kernel void @k(ptr %out, i32 %d) {
  %a = call spir_func i64 @_Z15get_global_sizej(i32 1)
  store i64 %a, ptr %out
  %b = call spir_func i64 @_Z15get_global_sizej(i32 3)
  %p1 = getelementptr inbounds i64, ptr %out, i64 1
  store i64 %b, ptr %p1
  %c = call spir_func i64 @_Z15get_global_sizej(i32 %d)
  %p2 = getelementptr inbounds i64, ptr %out, i64 2
  store i64 %c, ptr %p2
  %e = call spir_func i64 @_Z17get_global_offsetj(i32 7)
  %p3 = getelementptr inbounds i64, ptr %out, i64 3
  store i64 %e, ptr %p3
  %f = call spir_func i64 @_Z14get_num_groupsj(i32 %d)
  %p4 = getelementptr inbounds i64, ptr %out, i64 4
  store i64 %f, ptr %p4
  %g = call spir_func i64 @_Z12get_group_idj(i32 %d)
  %p5 = getelementptr inbounds i64, ptr %out, i64 5
  store i64 %g, ptr %p5
  ret void
}

; CHECK-LABEL: define internal i64 @_Z15get_global_sizej.pocl(i32 %0)
; CHECK: phi i64 {{.*}} [ 0, %1 ]
; CHECK-LABEL: define internal i64 @_Z14get_num_groupsj.pocl(i32 %0)
; CHECK-LABEL: define internal i64 @_Z17get_global_offsetj.pocl(i32 %0)
; CHECK-NOT: get_group_idj.pocl
; CHECK-LABEL: define void @k(
; CHECK: call i64 @_Z15get_global_sizej(i32 1)
; CHECK: call i64 @_Z15get_global_sizej(i32 3)
; CHECK: call i64 @_Z15get_global_sizej(i32 %d)
; CHECK: call i64 @_Z17get_global_offsetj(i32 7)
; CHECK: call i64 @_Z14get_num_groupsj(i32 %d)
; CHECK: call i64 @_Z12get_group_idj(i32 %d)
; CHECK-LABEL: define internal i64 @_Z15get_global_sizej(i32 %dim)
; CHECK-NEXT: entry:
; CHECK-NEXT: %[[V:[0-9]+]] = call i64 @_Z15get_global_sizej.pocl(i32 %dim)
; CHECK-NEXT: %in.range = icmp ult i32 %dim, 3
; CHECK-NEXT: %[[R:[0-9]+]] = select i1 %in.range, i64 %[[V]], i64 1
; CHECK-NEXT: ret i64 %[[R]]
; CHECK-LABEL: define internal i64 @_Z14get_num_groupsj(i32 %dim)
; CHECK: select i1 %in.range, i64 %{{[0-9]+}}, i64 1
; CHECK-LABEL: define internal i64 @_Z17get_global_offsetj(i32 %dim)
; CHECK: select i1 %in.range, i64 %{{[0-9]+}}, i64 0

; Inlined, the constant dimensions fold: 3 gives 1 and 7 gives 0 without
; a select; the variable one keeps the library's switch and the select.
; INLINED-LABEL: define void @k(
; INLINED-NOT: call i64
; INLINED: store i64 1, ptr %p1
; INLINED: %[[IN:.*]] = icmp ult i32 %d, 3
; INLINED: select i1 %[[IN]], i64 %{{.*}}, i64 1
; INLINED: store i64 0, ptr %p3
; INLINED: select i1 %{{.*}}, i64 %{{.*}}, i64 1
; INLINED: call i64 @_Z12get_group_idj(i32 %d)

; Wrapped once only.
; TWICE-NOT: .pocl.pocl
; TWICE: define internal i64 @_Z15get_global_sizej(i32 %dim)
; TWICE-NOT: .pocl.pocl

; ABSENT-NOT: .pocl
; ABSENT: define i64 @_Z15get_global_sizej(i32 %0)
