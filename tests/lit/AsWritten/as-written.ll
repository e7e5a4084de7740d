; iss-as-written: the kernel as written where widening the work-item loop
; does not lower a work-item's register operations (AsWritten.cpp), with
; -iss-vector-width=8: registers of 256 bits.
;
; rot8: its own vectors fill the register, in a loop of uniform trip count.
; __kernel void rot8(__global uint8 *out, __global const uint8 *in, int n) {
;   size_t x = get_global_id(0);
;   uint8 v = in[x];
;   for (int i = 0; i < n; ++i)
;     v = rotate(v, (uint8)5) + v;
;   out[x] = v;
; }
; As written, per work-item: the loop's rotate and add, one register each,
; per iteration (the loop's estimated frequency); the load, the store and
; the id's and addresses' arithmetic, one each. Widened by 8: each rotate
; and add becomes 8 operations on 8 work-items, one per work-item again;
; the load and the store are transposes of 8 registers (1 + 3 stages, 4
; each); only the 64-bit id and address arithmetic gains (2 registers for 8
; work-items). Not lower: as written.
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-as-written -iss-kernel=rot8 -iss-local-size=64 -iss-mode=split+score -iss-vector-width=8 -pass-remarks-analysis=iss-as-written -S %s 2>&1 | FileCheck %s --check-prefix=ROT8
; ROT8: remark: {{.*}} 46 register operations per work-item as written, 49 widened by 8: as written
; ROT8: define {{.*}}@rot8({{.*}}) #[[#ATTR:]]
; ROT8: attributes #[[#ATTR]] = { {{.*}}"iss-as-written"
;
; Through the whole work-group pipeline, in every mode but scalar: one
; subkernel, unsplit and not horizontal (no work-item loop inside the
; kernel's loop), marked for the pipeline, its vectors whole.
; RUN: pocl-iss-opt -passes=iss-workgroup -iss-kernel=rot8 -iss-local-size=64 -iss-mode=split+score -iss-vector-width=8 -S %s | FileCheck %s --check-prefix=WG
; WG: define void @__iss_sub_rot8_0({{.*}}) #[[#SUB:]]
; WG: call <8 x i32> @llvm.fshl.v8i32(
; WG: define i32 @__iss_select_rot8(
; WG-NEXT: entry:
; WG-NEXT: ret i32 0
; WG: attributes #[[#SUB]] = { {{.*}}"iss-as-written"
; WG: !{!"rot8", !"__iss_sub_rot8_0", !"split+score:written"}
;
; -iss-choice=0 (POCL_ISS_CHOICE=0): the paper's subkernels.
; RUN: pocl-iss-opt -passes=iss-workgroup -iss-choice=0 -iss-kernel=rot8 -iss-local-size=64 -iss-mode=split+score -iss-vector-width=8 -S %s | FileCheck %s --check-prefix=NOCHOICE
; NOCHOICE-NOT: iss-as-written
; NOCHOICE: !{!"rot8", !"__iss_sub_rot8_0", !"split+score:x/8"}
;
; In a work group of one work-item nothing widens.
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-as-written -iss-kernel=rot8 -iss-local-size=1 -iss-mode=vec -iss-vector-width=8 -pass-remarks-analysis=iss-as-written -S %s 2>&1 | FileCheck %s --check-prefix=ONE
; ONE: widened by 1: as written
;
; mad16: two int16 carried by a loop of mads (clpeak's integer compute):
; as written 4 registers, widened by 8 32, twice the register file's 16;
; widening saves the id's arithmetic but spills 16 registers, a store and
; a load of each per iteration.
; __kernel void mad16(__global int16 *out, int16 a, int n) {
;   int16 x = (int16)(get_global_id(0)), y = a;
;   for (int i = 0; i < n; ++i) {
;     x = y * x + y;
;     y = x * y + x;
;   }
;   out[get_global_id(0)] = x + y;
; }
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-as-written -iss-kernel=mad16 -iss-local-size=256 -iss-mode=vec -iss-vector-width=8 -pass-remarks-analysis=iss-as-written -S %s 2>&1 | FileCheck %s --check-prefix=MAD16
; MAD16: remark: {{.*}} widened by 8: as written
; MAD16: attributes #{{.*}}"iss-as-written"
; The same with the registers of AVX-512 (32 of 512 bits): 2 as written,
; 16 widened, no spill, and the id's arithmetic tips it.
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-as-written -iss-kernel=mad16 -iss-local-size=256 -iss-mode=vec -iss-vector-width=16 -pass-remarks-analysis=iss-as-written -S %s 2>&1 | FileCheck %s --check-prefix=MAD16W
; MAD16W: remark: {{.*}} widened by 16: widened, the kernel as written a candidate
; MAD16W-NOT: attributes #{{.*}}"iss-as-written"
; MAD16W: !iss.written.candidate = !{![[#NODE:]]}
; MAD16W: ![[#NODE]] = !{!"mad16"}
; Widening less than twice as cheap, so the kernel as written is a
; candidate of the measured choice; compiled as that candidate
; (-iss-as-written-only), it is marked whatever the count.
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-as-written -iss-as-written-only -iss-kernel=mad16 -iss-local-size=256 -iss-mode=vec -iss-vector-width=16 -pass-remarks-analysis=iss-as-written -S %s 2>&1 | FileCheck %s --check-prefix=ONLY
; ONLY: remark: {{.*}} widened by 16: as written (the candidate)
; ONLY: attributes #{{.*}}"iss-as-written"
; ONLY-NOT: iss.written.candidate
;
; mad4: float4, half a register: widened, each operation serves 8
; work-items at the cost of 4 as written.
; __kernel void mad4(__global float4 *out, __global const float4 *a,
;                    __global const float4 *b) {
;   size_t x = get_global_id(0);
;   float4 u = a[x], v = b[x];
;   out[x] = u * v * v + u * u + v;
; }
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-as-written -iss-kernel=mad4 -iss-local-size=64 -iss-mode=vec -iss-vector-width=8 -pass-remarks-analysis=iss-as-written -S %s 2>&1 | FileCheck %s --check-prefix=MAD4
; MAD4: remark: {{.*}} widened by 8: widened, the kernel as written a candidate
; MAD4-NOT: "iss-as-written"
;
; add1: scalar code in a group of 64: widened by 8.
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-as-written -iss-kernel=add1 -iss-local-size=64 -iss-mode=score -iss-vector-width=8 -pass-remarks-analysis=iss-as-written -S %s 2>&1 | FileCheck %s --check-prefix=ADD1
; ADD1: remark: {{.*}} 7 register operations per work-item as written, 1.375 widened by 8: widened{{$}}
; ADD1-NOT: "iss-as-written"
; ADD1-NOT: iss.written.candidate

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

declare <8 x i32> @llvm.fshl.v8i32(<8 x i32>, <8 x i32>, <8 x i32>)

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

define spir_kernel void @rot8(ptr %out, ptr %in, i32 %n) {
entry:
  %x = call i64 @gid_x()
  %pi = getelementptr inbounds <8 x i32>, ptr %in, i64 %x
  %v0 = load <8 x i32>, ptr %pi, align 32
  %has = icmp sgt i32 %n, 0
  br i1 %has, label %loop, label %done

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = phi <8 x i32> [ %v0, %entry ], [ %v.next, %loop ]
  %r = call <8 x i32> @llvm.fshl.v8i32(<8 x i32> %v, <8 x i32> %v, <8 x i32> <i32 5, i32 5, i32 5, i32 5, i32 5, i32 5, i32 5, i32 5>)
  %v.next = add <8 x i32> %r, %v
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %done

done:
  %vr = phi <8 x i32> [ %v0, %entry ], [ %v.next, %loop ]
  %po = getelementptr inbounds <8 x i32>, ptr %out, i64 %x
  store <8 x i32> %vr, ptr %po, align 32
  ret void
}

define spir_kernel void @mad16(ptr %out, <16 x i32> %a, i32 %n) {
entry:
  %g = call i64 @gid_x()
  %g32 = trunc i64 %g to i32
  %gi = insertelement <16 x i32> poison, i32 %g32, i64 0
  %x0 = shufflevector <16 x i32> %gi, <16 x i32> poison, <16 x i32> zeroinitializer
  %has = icmp sgt i32 %n, 0
  br i1 %has, label %loop, label %done

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %x = phi <16 x i32> [ %x0, %entry ], [ %x.next, %loop ]
  %y = phi <16 x i32> [ %a, %entry ], [ %y.next, %loop ]
  %yx = mul <16 x i32> %y, %x
  %x.next = add <16 x i32> %yx, %y
  %xy = mul <16 x i32> %x.next, %y
  %y.next = add <16 x i32> %xy, %x.next
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %done

done:
  %xr = phi <16 x i32> [ %x0, %entry ], [ %x.next, %loop ]
  %yr = phi <16 x i32> [ %a, %entry ], [ %y.next, %loop ]
  %s = add <16 x i32> %xr, %yr
  %po = getelementptr inbounds <16 x i32>, ptr %out, i64 %g
  store <16 x i32> %s, ptr %po, align 64
  ret void
}

define spir_kernel void @mad4(ptr %out, ptr %a, ptr %b) {
entry:
  %x = call i64 @gid_x()
  %pa = getelementptr inbounds <4 x float>, ptr %a, i64 %x
  %u = load <4 x float>, ptr %pa, align 16
  %pb = getelementptr inbounds <4 x float>, ptr %b, i64 %x
  %v = load <4 x float>, ptr %pb, align 16
  %uv = fmul <4 x float> %u, %v
  %uvv = fmul <4 x float> %uv, %v
  %uu = fmul <4 x float> %u, %u
  %s = fadd <4 x float> %uvv, %uu
  %r = fadd <4 x float> %s, %v
  %po = getelementptr inbounds <4 x float>, ptr %out, i64 %x
  store <4 x float> %r, ptr %po, align 16
  ret void
}

define spir_kernel void @add1(ptr %out, ptr %a) {
entry:
  %x = call i64 @gid_x()
  %pa = getelementptr inbounds i32, ptr %a, i64 %x
  %v = load i32, ptr %pa, align 4
  %r = add i32 %v, 1
  %po = getelementptr inbounds i32, ptr %out, i64 %x
  store i32 %r, ptr %po, align 4
  ret void
}
