//===- WorkGroupABI.h - The contract between device and compiled code -----===//
// SPDX-License-Identifier: MIT
//
// The binary interface between the pthread device and the work-group
// functions the kernel compiler generates. Plain C layout: the compiler
// builds the same struct type in IR (lib/Compiler/WorkGroup/WorkItemLoops.cpp)
// and the field order below must not change without changing it there.
//
// A compiled kernel has several subkernels (one per vectorized work-item
// dimension once input space splitting lands, see the input-space-splitting
// paper, section 4) and one selection function evaluated once per launch.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_WORKGROUPABI_H
#define POCL_ISS_WORKGROUPABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a work-group function reads besides the kernel arguments. The local
/// size is a compile-time constant of each compiled kernel, so it is absent.
typedef struct iss_wg_context {
  uint64_t group_id[3];
  uint64_t num_groups[3];
  uint64_t global_offset[3];
  uint32_t work_dim;
  uint32_t printf_buffer_capacity;
  char *printf_buffer;
  uint32_t *printf_buffer_position;
  /// The calling thread's scratch memory, ISS_SCRATCH_ALIGN-aligned, of at
  /// least CompiledKernel::ScratchBytes: private and context arrays too big
  /// for its stack. Each thread runs one work group at a time in it.
  char *scratch;
} iss_wg_context;

/// The alignment of iss_wg_context::scratch: a page. A slot is placed in
/// scratch memory at an offset aligned to its own alignment, so any slot
/// aligned to at most this much is aligned in memory; one aligned more
/// stays on the stack.
#define ISS_SCRATCH_ALIGN 4096

/// An image as pocl 3.1's kernel library reads and writes it (the layout of
/// its dev_image_t, pocl_image_types.h): an image argument is a pointer to
/// one. A dimension the image type lacks is 0 (the height of 1D images and
/// 1D arrays, the depth of all but 3D images, the array size of all but
/// arrays): the library tells a 1D array from a 2D one by its height, and
/// checks bounds only in dimensions that are not 0. Pitches are in bytes;
/// the library steps through a 1D array's images with the row pitch, so
/// there it holds the slice pitch. Order and data type are the CL_*
/// values; elem_size is the bytes of one channel.
typedef struct iss_image {
  void *data;
  int32_t width;
  int32_t height;
  int32_t depth;
  int32_t array_size;
  int32_t row_pitch;
  int32_t slice_pitch;
  int32_t num_mip_levels;
  int32_t num_samples;
  int32_t channel_order;
  int32_t channel_data_type;
  int32_t num_channels;
  int32_t elem_size;
} iss_image;

/// Runs every work-item of the work group \p ctx->group_id.
/// \p args has one slot per kernel argument, then one per automatic
/// (function-scope) __local variable. Each slot points at the argument's
/// bytes: for a __global/__constant buffer, at a void* holding the buffer's
/// address (or NULL); for a __local argument or variable, at a void* holding
/// this work group's local memory; for a by-value argument (scalar, vector or
/// struct), at the value itself; for an image, at a pointer to its
/// iss_image; for a sampler, at its CLK_* bits in a pointer-sized integer
/// (pocl 3.1's dev_sampler_t), which Clang's IR types as a pointer.
typedef void (*iss_subkernel_fn)(void *const *args, const iss_wg_context *ctx);

/// Picks the subkernel for a whole launch: called once per launch with the
/// same \p args and a \p ctx whose group_id is zero.
typedef uint32_t (*iss_select_fn)(void *const *args, const iss_wg_context *ctx);

#ifdef __cplusplus
}
#endif

#endif // POCL_ISS_WORKGROUPABI_H
