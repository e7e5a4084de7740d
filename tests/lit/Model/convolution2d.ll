; print<iss-model> on the paper's running example, Convolution2D (Figure 2,
; as examples/convolution2d runs it, local size 32x8): with x vectorized,
; the left border (left = 0, the input read uniform, the mask read
; backwards), the centre (both loops run 2 * vstep + 1 times on every
; work-item: consecutive input, uniform mask, the loops uniform across the
; range) and the right border (the i loop divergent); the paper's Table 3
; shows the same codelets. vstep = (maskWidth - 1) / 2 is a parameter of
; its own (%div), j * width and y * width opaque ones that only y changes.
;
; __kernel void Convolution2D(__global int *output, __global int *input,
;                             __global float *mask, int width, int height,
;                             int maskWidth, int maskHeight) {
;   int x = get_global_id(0);
;   int y = get_global_id(1);
;   int vstep = (maskWidth - 1) / 2;
;   int hstep = (maskHeight - 1) / 2;
;   int left = MAX(0, x - vstep);
;   int right = MIN(width - 1, x + vstep);
;   int top = MAX(0, y - hstep);
;   int bottom = MIN(height - 1, y + hstep);
;   float sumFX = 0;
;   for (int i = left; i <= right; ++i)
;     for (int j = top; j <= bottom; ++j) {
;       int maskIndex = (j - (y - hstep)) * maskWidth + (i - (x - vstep));
;       int index = j * width + i;
;       sumFX += input[index] * mask[maskIndex];
;     }
;   output[y * width + x] = (int)(sumFX + 0.5);
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -o /dev/null %s 2>&1 | FileCheck %s
; A quota too small for the region: the model gives the region up (and
; the parameters it made on the way, which have no isl id once the quota
; ran out: comparing their names crashed the compiler), and the split
; leaves it unsplit with a remark, whatever the quota.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-mode=split -iss-model-max-ops=100 -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-mode=split -iss-model-max-ops=100 -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=QUOTA
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-mode=split -iss-model-max-ops=10000 -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-mode=split -iss-model-max-ops=10000 -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=QUOTA
; One work-item along the vectorized dimension (1x1 groups, or 1x8 ones
; where no dimension has the lanes' 16): nothing to split, and no model
; built, so no quota to run out of and no remark.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=Convolution2D -iss-local-size=1,1,1 -iss-mode=split -iss-model-max-ops=100 -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=Convolution2D -iss-local-size=1,1,1 -iss-mode=split -iss-model-max-ops=100 -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=ONE
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=Convolution2D -iss-local-size=1,8,1 -iss-vector-width=16 -iss-mode=split -iss-model-max-ops=100 -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=Convolution2D -iss-local-size=1,8,1 -iss-vector-width=16 -iss-mode=split -iss-model-max-ops=100 -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=ONE
; ...but with two work-items along it, the model is built (and runs out).
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=Convolution2D -iss-local-size=2,8,1 -iss-vector-width=16 -iss-mode=split -iss-model-max-ops=100 -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=Convolution2D -iss-local-size=2,8,1 -iss-vector-width=16 -iss-mode=split -iss-model-max-ops=100 -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=QUOTA

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64
@_local_size_x = external global i64
@_local_size_y = external global i64
@_group_id_x = external global i64
@_group_id_y = external global i64
@_global_offset_x = external global i64
@_global_offset_y = external global i64

define spir_kernel void @Convolution2D(ptr %output, ptr %input, ptr %mask, i32 %width, i32 %height, i32 %maskWidth, i32 %maskHeight) {
entry:
  %0 = load i64, ptr @_global_offset_x
  %1 = load i64, ptr @_group_id_x
  %lsx = load i64, ptr @_local_size_x
  %2 = mul i64 %lsx, %1
  %3 = add i64 %0, %2
  %4 = load i64, ptr @_local_id_x
  %5 = add i64 %3, %4
  %conv = trunc i64 %5 to i32
  %6 = load i64, ptr @_global_offset_y
  %7 = load i64, ptr @_group_id_y
  %lsy = load i64, ptr @_local_size_y
  %8 = mul i64 %lsy, %7
  %9 = add i64 %6, %8
  %10 = load i64, ptr @_local_id_y
  %11 = add i64 %9, %10
  %conv2 = trunc i64 %11 to i32
  %sub = sub nsw i32 %maskWidth, 1
  %div = sdiv i32 %sub, 2
  %sub3 = sub nsw i32 %maskHeight, 1
  %div4 = sdiv i32 %sub3, 2
  %sub5 = sub nsw i32 %conv, %div
  %cmp = icmp sgt i32 0, %sub5
  %cond = select i1 %cmp, i32 0, i32 %sub5
  %sub8 = sub nsw i32 %width, 1
  %add = add nsw i32 %conv, %div
  %cmp9 = icmp slt i32 %sub8, %add
  %cond16 = select i1 %cmp9, i32 %sub8, i32 %add
  %sub17 = sub nsw i32 %conv2, %div4
  %cmp18 = icmp sgt i32 0, %sub17
  %cond24 = select i1 %cmp18, i32 0, i32 %sub17
  %sub25 = sub nsw i32 %height, 1
  %add26 = add nsw i32 %conv2, %div4
  %cmp27 = icmp slt i32 %sub25, %add26
  %cond34 = select i1 %cmp27, i32 %sub25, i32 %add26
  br label %for.cond

for.cond:
  %sumFX.0 = phi float [ 0.000000e+00, %entry ], [ %sumFX.1, %for.inc53 ]
  %i.0 = phi i32 [ %cond, %entry ], [ %inc54, %for.inc53 ]
  %cmp35 = icmp sle i32 %i.0, %cond16
  br i1 %cmp35, label %for.cond37.preheader, label %for.end55

for.cond37.preheader:
  br label %for.cond37

for.cond37:
  %sumFX.1 = phi float [ %14, %for.body41 ], [ %sumFX.0, %for.cond37.preheader ]
  %j.0 = phi i32 [ %inc, %for.body41 ], [ %cond24, %for.cond37.preheader ]
  %cmp38 = icmp sle i32 %j.0, %cond34
  br i1 %cmp38, label %for.body41, label %for.inc53

for.body41:
  %sub43 = sub nsw i32 %j.0, %sub17
  %mul = mul nsw i32 %sub43, %maskWidth
  %sub45 = sub nsw i32 %i.0, %sub5
  %add46 = add nsw i32 %mul, %sub45
  %mul47 = mul nsw i32 %j.0, %width
  %add48 = add nsw i32 %mul47, %i.0
  %idxprom = sext i32 %add48 to i64
  %arrayidx = getelementptr inbounds i32, ptr %input, i64 %idxprom
  %12 = load i32, ptr %arrayidx, align 4
  %conv49 = sitofp i32 %12 to float
  %idxprom50 = sext i32 %add46 to i64
  %arrayidx51 = getelementptr inbounds float, ptr %mask, i64 %idxprom50
  %13 = load float, ptr %arrayidx51, align 4
  %14 = call float @llvm.fmuladd.f32(float %conv49, float %13, float %sumFX.1)
  %inc = add nsw i32 %j.0, 1
  br label %for.cond37

for.inc53:
  %inc54 = add nsw i32 %i.0, 1
  br label %for.cond

for.end55:
  %conv56 = fpext float %sumFX.0 to double
  %add57 = fadd double %conv56, 5.000000e-01
  %conv58 = fptosi double %add57 to i32
  %mul59 = mul nsw i32 %conv2, %width
  %add60 = add nsw i32 %mul59, %conv
  %idxprom61 = sext i32 %add60 to i64
  %arrayidx62 = getelementptr inbounds i32, ptr %output, i64 %idxprom61
  store i32 %conv58, ptr %arrayidx62, align 4
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)

; The model. The global ids fit in int where O_x + 31 and O_y + 7 do.
; CHECK-LABEL: iss-model of @Convolution2D, local size 32x8x1
; CHECK-NEXT: assumed: [O_x, O_y] -> {  : O_x <= 2147483616 and O_y <= 2147483640 }
; CHECK: loop for.cond (k0): bounded
; CHECK-NEXT: loop for.cond37 (k1): bounded
; The i loop runs min(width - 1, x + vstep) - max(0, x - vstep) + 1 times.
; CHECK: block for.cond37.preheader: [O_x, width, div] -> { for_cond[x, y, z = 0, k0] : 0 <= x <= 31 and 0 <= y <= 7 and 0 <= k0 < -O_x + width + div - x and k0 <= 2div and k0 < width and k0 <= O_x + div + x }
; CHECK: store for.end55 4 bytes at %output + [O_x, u_mul59] -> { WI[x, y, z] -> [(4O_x + 4u_mul59 + 4x)] }
; i = left + k0: left is 0 left of x = vstep - O_x, x - vstep from there.
; CHECK-NEXT: load for.body41 4 bytes at %input + [O_x, div, u_mul47] -> { for_cond37[x, y, z, k0, k1] -> [(4u_mul47 + 4k0)] : x < -O_x + div; for_cond37[x, y, z, k0, k1] -> [(4O_x - 4div + 4u_mul47 + 4x + 4k0)] : x >= -O_x + div }
; CHECK-NEXT: load for.body41 4 bytes at %mask + [O_x, div, u_mul] -> { for_cond37[x, y, z, k0, k1] -> [(-4O_x + 4div + 4u_mul - 4x + 4k0)] : x < -O_x + div; for_cond37[x, y, z, k0, k1] -> [(4u_mul + 4k0)] : x >= -O_x + div }

; x vectorized: I_C starts at the first tile of the centre.
; CHECK-LABEL: region entry.barrier, dimension x, width 8:
; CHECK: load for.body41 #1:
; CHECK-NEXT: consecutive at [O_x, O_y, width, height, div, div4] -> { WI[x, y, z = 0] : height > 0 and div >= 0 and div4 >= 0 and x >= 0 and -O_x + div <= x < -O_x + width + div and x <= 31 and 0 <= y < -O_y + height + div4 and y <= 7 }
; CHECK: consecutive tiles [O_x, div] -> { WI[x, y, z = 0] : 0 <= x <= 31 and 0 <= y <= 7 and 8*floor((x)/8) >= -O_x + div }
; CHECK: load for.body41 #2:
; CHECK-NEXT: consecutive at { WI[x, y, z] : false }
; CHECK: consecutive tiles { WI[x, y, z] : false } (never on a full tile)
; CHECK-NEXT: uniform tiles [O_x, div] -> { WI[x, y, z = 0] : 0 <= x <= 31 and 0 <= y <= 7 and 8*floor((x)/8) >= -O_x + div }
; CHECK-NEXT: I_C: [O_x, div] -> { WI[x, y, z = 0] : 0 <= x <= 31 and 0 <= y <= 7 and 8*floor((x)/8) >= -O_x + div }
; CHECK-NEXT: pieces:
; CHECK-NEXT: 0 (full, consecutive, uniform control): [O_x, width, div] -> { WI[x, y, z = 0] : 0 <= x <= 31 and 0 <= y <= 7 and -O_x + div <= 8*floor((x)/8) <= -8 - O_x + width - div }
; CHECK-NEXT: 1 (full, consecutive, divergent control): [O_x, width, div] -> { WI[x, y, z = 0] : 0 <= x <= 31 and 0 <= y <= 7 and 8*floor((x)/8) >= -7 - O_x + width - div and 8*floor((x)/8) >= -O_x + div }
; CHECK-NEXT: 2 (full, remainder): [O_x, div] -> { WI[x, y, z = 0] : 0 <= x <= 31 and 0 <= y <= 7 and 8*floor((x)/8) < -O_x + div }
; The left border, the centre, the right border.
; CHECK-NEXT: ranges of x:
; CHECK-NEXT: [0, [[LEFT:O_x >= div \+ 1 \? 0 : div >= O_x \+ 25 \? 32 : -\(\(-O_x \+ div \+ 7\) % 8\) - O_x \+ div \+ 7]]): piece 2
; CHECK-NEXT: accesses: cons div div
; CHECK-NEXT: branch for.cond: divergent
; CHECK-NEXT: branch for.cond37: uniform across the range
; CHECK-NEXT: [[[LEFT]], [[RIGHT:.+]]): piece 0
; CHECK-NEXT: accesses: cons cons uni
; CHECK-NEXT: branch for.cond: uniform across the range
; CHECK-NEXT: branch for.cond37: uniform across the range
; CHECK-NEXT: [[[RIGHT]], 32): piece 1
; CHECK-NEXT: accesses: cons cons uni
; CHECK-NEXT: branch for.cond: divergent
; CHECK-NEXT: branch for.cond37: uniform across the range

; y vectorized: every access strides by a row; only the j loop varies.
; CHECK-LABEL: region entry.barrier, dimension y, width 8:
; CHECK: store for.end55 #0: non-affine
; CHECK-NEXT: load for.body41 #1: non-affine
; CHECK-NEXT: load for.body41 #2: non-affine
; CHECK: ranges of y:
; CHECK-NEXT: [0, [[TOP:.+]]): piece 0
; CHECK-NEXT: accesses: div div div
; CHECK-NEXT: branch for.cond: uniform across the range
; CHECK-NEXT: branch for.cond37: uniform across the range
; CHECK-NEXT: [[[TOP]], 8): piece 1
; CHECK-NEXT: accesses: div div div
; CHECK-NEXT: branch for.cond: uniform across the range
; CHECK-NEXT: branch for.cond37: divergent

; QUOTA: remark: {{.*}}region after entry.barrier not split: isl ran out of quota
; QUOTA: define void @__iss_sub_Convolution2D_0(
; QUOTA-NOT: wi.tile
; QUOTA: ret void

; ONE-NOT: remark
; ONE: define void @__iss_sub_Convolution2D_0(
; ONE-NOT: wi.tile
; ONE: ret void
