; Addresses are computed modulo 2^64, so an index in size_t arithmetic is
; exact even where its 64-bit additions and multiplications could wrap:
; y * width + x, with y * width an opaque parameter (the same along x), is
; consecutive along x (BlackScholes, SobelFilter). Only the ring operations
; down from the index are: a comparison of the same value needs it free of
; wrapping, and so does an index truncated to int. Those two are exact
; where the opaque parameter's values keep them in range: y * w is
; computed from the local ids, the arguments and the work-group values
; alone, so the assumption is one per work-item (iss-split checks it
; for each y of the group before it runs the split).
;
; __kernel void bs(__global float *out, __global const float *in, int w,
;                  ulong n) {
;   size_t x = get_global_id(0), y = get_global_id(1), i = y * w + x;
;   out[i] = in[i];
;   if (i < n) out[i + 1] = 0;
;   out[(int)(y * w + x)] = 1;
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=bs -iss-local-size=16,16,1 -iss-vector-width=16 -iss-model-dims=0 -o /dev/null %s 2>&1 | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64
@_local_size_x = external global i64
@_local_size_y = external global i64
@_group_id_x = external global i64
@_group_id_y = external global i64
@_global_offset_x = external global i64
@_global_offset_y = external global i64

define i64 @gid_x() alwaysinline {
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  ret i64 %g
}

define i64 @gid_y() alwaysinline {
  %off = load i64, ptr @_global_offset_y
  %gid = load i64, ptr @_group_id_y
  %ls = load i64, ptr @_local_size_y
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_y
  %g = add i64 %g0, %lid
  ret i64 %g
}

define spir_kernel void @bs(ptr %out, ptr %in, i32 %w, i64 %n) {
entry:
  %x = call i64 @gid_x()
  %y = call i64 @gid_y()
  %w64 = sext i32 %w to i64
  %yw = mul i64 %y, %w64
  %i = add i64 %yw, %x
  %pin = getelementptr inbounds float, ptr %in, i64 %i
  %vin = load float, ptr %pin
  %pout = getelementptr inbounds float, ptr %out, i64 %i
  store float %vin, ptr %pout
  %c = icmp ult i64 %i, %n
  br i1 %c, label %then, label %end

then:
  %i1 = add i64 %i, 1
  %p1 = getelementptr inbounds float, ptr %out, i64 %i1
  store float 0.0, ptr %p1
  br label %end

end:
  %t = trunc i64 %i to i32
  %ts = sext i32 %t to i64
  %pt = getelementptr inbounds float, ptr %out, i64 %ts
  store float 1.0, ptr %pt
  ret void
}

; The int range of the truncated index, for each value of y * w.
; CHECK: assumed per work-item: [O_x, u_yw] -> {  : -2147483648 - O_x <= u_yw <= 2147483632 - O_x }
; CHECK: branch kernel.body: affine
; CHECK: load kernel.body 4 bytes at %in + [O_x, u_yw] -> { WI[x, y, z] -> [(4O_x + 4u_yw + 4x)] }
; CHECK: store kernel.body 4 bytes at %out + [O_x, u_yw] -> { WI[x, y, z] -> [(4O_x + 4u_yw + 4x)] }
; CHECK: store then 4 bytes at %out + [O_x, u_yw] -> { WI[x, y, z] -> [(4 + 4O_x + 4u_yw + 4x)] }
; CHECK: store end 4 bytes at %out + [O_x, u_yw] -> { WI[x, y, z] -> [(4O_x + 4u_yw + 4x)] }
; CHECK: region entry.barrier, dimension x, width 16:
; The comparison with n is uniform on a tile only where n = 0, whatever
; y * w is; every access is consecutive.
; CHECK: branch kernel.body: uniform tiles [n] -> { WI[x, y, z = 0] : n = 0 and 0 <= x <= 15 and 0 <= y <= 15 }
; CHECK: accesses: cons cons cons cons
