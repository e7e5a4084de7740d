//===- BufferCommands.cpp - Reads, writes, copies, fills and maps ---------===//
// SPDX-License-Identifier: MIT
//
// The buffer commands. Arguments are checked when enqueued (bounds, pitches,
// host access flags, overlap); the copy itself runs on the device's
// scheduler thread in queue order. Maps hand out the buffer's own bytes:
// device memory is host memory, so a map needs no copy and an unmap no
// write-back.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Command.h"

#include <algorithm>

using namespace iss;

/// The queue and buffer checks every buffer command starts with.
cl_int iss::checkQueueMem(const char *Func, cl_command_queue Q, cl_mem M) {
  if (!isValid(Q))
    return apiError(Func, CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (!isValid(M) || M->Type != CL_MEM_OBJECT_BUFFER)
    return apiError(Func, CL_INVALID_MEM_OBJECT, "not a buffer");
  if (M->Context.get() != Q->Context.get())
    return apiError(Func, CL_INVALID_CONTEXT,
                    "buffer and queue are from different contexts");
  return CL_SUCCESS;
}

bool iss::hostCannotRead(cl_mem M) {
  return M->Flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
}
bool iss::hostCannotWrite(cl_mem M) {
  return M->Flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
}

bool iss::validMapFlags(cl_map_flags Flags) {
  const cl_map_flags Known =
      CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  return !(Flags & ~Known) && !((Flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                                (Flags & (CL_MAP_READ | CL_MAP_WRITE)));
}

bool iss::mapConflictsWithHostAccess(cl_mem M, cl_map_flags Flags) {
  return ((Flags & CL_MAP_READ) && hostCannotRead(M)) ||
         ((Flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
          hostCannotWrite(M));
}

cl_int iss::checkMigration(const char *Func, cl_command_queue Q, cl_uint Num,
                           const void *List, cl_mem_migration_flags Flags) {
  if (!isValid(Q))
    return apiError(Func, CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (Num == 0 || !List)
    return apiError(Func, CL_INVALID_VALUE, "nothing to migrate");
  if (Flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                      CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return apiError(Func, CL_INVALID_VALUE, "invalid migration flags");
  return CL_SUCCESS;
}

void FillPattern::fill(char *Dst, size_t Size) const {
  if (Bytes.size() == 1) {
    std::memset(Dst, Bytes[0], Size);
    return;
  }
  for (size_t I = 0; I < Size; I += Bytes.size())
    std::memcpy(Dst + I, Bytes.data(), Bytes.size());
}

static bool inBounds(cl_mem M, size_t Offset, size_t Size) {
  return Size && Offset <= M->Size && Size <= M->Size - Offset;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(
    cl_command_queue Q, cl_mem M, cl_bool Blocking, size_t Offset, size_t Size,
    void *Ptr, cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  if (cl_int E = checkQueueMem(__func__, Q, M))
    return E;
  if (cl_int E = checkWaitList(__func__, Q->Context.get(), NumWait, Wait))
    return E;
  if (!Ptr || !inBounds(M, Offset, Size))
    return ISS_ERR(CL_INVALID_VALUE, "ptr is NULL or region out of bounds");
  if (hostCannotRead(M))
    return ISS_ERR(CL_INVALID_OPERATION, "buffer is not host-readable");
  Ref<_cl_mem> Keep(M);
  return enqueueCommand(Q, CL_COMMAND_READ_BUFFER, NumWait, Wait, Event,
                        Blocking, [Keep, Offset, Size, Ptr] {
                          std::memmove(Ptr, Keep->Data + Offset, Size);
                          return CL_SUCCESS;
                        });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(
    cl_command_queue Q, cl_mem M, cl_bool Blocking, size_t Offset, size_t Size,
    const void *Ptr, cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  if (cl_int E = checkQueueMem(__func__, Q, M))
    return E;
  if (cl_int E = checkWaitList(__func__, Q->Context.get(), NumWait, Wait))
    return E;
  if (!Ptr || !inBounds(M, Offset, Size))
    return ISS_ERR(CL_INVALID_VALUE, "ptr is NULL or region out of bounds");
  if (hostCannotWrite(M))
    return ISS_ERR(CL_INVALID_OPERATION, "buffer is not host-writable");
  Ref<_cl_mem> Keep(M);
  return enqueueCommand(Q, CL_COMMAND_WRITE_BUFFER, NumWait, Wait, Event,
                        Blocking, [Keep, Offset, Size, Ptr] {
                          std::memmove(Keep->Data + Offset, Ptr, Size);
                          return CL_SUCCESS;
                        });
}

/// The root buffer and the offset in it, to find overlaps between
/// sub-buffers of one buffer.
static std::pair<cl_mem, size_t> rootOf(cl_mem M, size_t Offset) {
  return M->Parent ? std::make_pair(M->Parent.get(), M->Origin + Offset)
                   : std::make_pair(M, Offset);
}

/// clEnqueueCopyBuffer and clCommandCopyBufferKHR.
cl_int iss::copyBufferCommand(const char *Func, const CommandTarget &T,
                              cl_mem Src, cl_mem Dst, size_t SrcOffset,
                              size_t DstOffset, size_t Size) {
  if (cl_int E = checkQueueMem(Func, T.Q, Src))
    return E;
  if (cl_int E = checkQueueMem(Func, T.Q, Dst))
    return E;
  if (cl_int E = T.checkWaits(Func))
    return E;
  if (!inBounds(Src, SrcOffset, Size) || !inBounds(Dst, DstOffset, Size))
    return apiError(Func, CL_INVALID_VALUE, "region out of bounds or size 0");
  auto [SrcRoot, SrcAt] = rootOf(Src, SrcOffset);
  auto [DstRoot, DstAt] = rootOf(Dst, DstOffset);
  if (SrcRoot == DstRoot && rangesOverlap(SrcAt, DstAt, Size))
    return apiError(Func, CL_MEM_COPY_OVERLAP,
                    "source and destination overlap");
  Ref<_cl_mem> KeepSrc(Src), KeepDst(Dst), Content;
  {
    std::lock_guard<std::mutex> L(Src->M);
    Content = Src->ContentSize;
  }
  return T.run(CL_COMMAND_COPY_BUFFER, [KeepSrc, KeepDst, Content, SrcOffset,
                                        DstOffset, Size] {
    size_t Bytes = Size;
    if (Content) {
      // cl_pocl_content_size: nothing past the content is copied.
      uint64_t Limit;
      std::memcpy(&Limit, Content->Data, sizeof(Limit));
      Bytes =
          Limit <= SrcOffset ? 0 : std::min<uint64_t>(Size, Limit - SrcOffset);
    }
    std::memcpy(KeepDst->Data + DstOffset, KeepSrc->Data + SrcOffset, Bytes);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBuffer(cl_command_queue Q, cl_mem Src, cl_mem Dst,
                    size_t SrcOffset, size_t DstOffset, size_t Size,
                    cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  return copyBufferCommand(__func__,
                           CommandTarget::queue(Q, NumWait, Wait, Event), Src,
                           Dst, SrcOffset, DstOffset, Size);
}

namespace {
/// A validated rectangle: its pitches, and the offsets of its first byte
/// and one past its last.
struct Rect {
  size_t Row, Slice, Begin, End;
};
} // namespace

/// Fills in default pitches and checks them as the rect commands'
/// specification says, then computes the rectangle's extent. Origin,
/// region and pitches are the application's numbers: every product and sum
/// is overflow-checked, so a rectangle that wraps size_t is refused rather
/// than checked against a wrapped bound.
static bool makeRect(const size_t *Origin, const size_t *Region, size_t Row,
                     size_t Slice, Rect &R) {
  if (!Origin)
    return false;
  if (Row == 0)
    Row = Region[0];
  else if (Row < Region[0])
    return false;
  size_t Plane; // the bytes of one slice's rows
  if (!mulSize(Region[1], Row, Plane))
    return false;
  if (Slice == 0)
    Slice = Plane;
  else if (Slice < Plane || Slice % Row)
    return false;
  // Begin = Origin[2] * Slice + Origin[1] * Row + Origin[0]; the extent is
  // (Region[2] - 1) * Slice + (Region[1] - 1) * Row + Region[0], whose last
  // two terms add up to at most Plane.
  size_t SliceOff, RowOff, Begin, Slices, Extent, End;
  if (!mulSize(Origin[2], Slice, SliceOff) ||
      !mulSize(Origin[1], Row, RowOff) || !addSize(SliceOff, RowOff, Begin) ||
      !addSize(Begin, Origin[0], Begin) ||
      !mulSize(Region[2] - 1, Slice, Slices) ||
      !addSize(Slices, (Region[1] - 1) * Row + Region[0], Extent) ||
      !addSize(Begin, Extent, End))
    return false;
  R = {Row, Slice, Begin, End};
  return true;
}

static bool validRegion(const size_t *Region) {
  return Region && Region[0] && Region[1] && Region[2];
}

/// A buffer side of a rect command: the rectangle lies in \p M.
static bool makeBufferRect(cl_mem M, const size_t *Origin, const size_t *Region,
                           size_t Row, size_t Slice, Rect &R) {
  return makeRect(Origin, Region, Row, Slice, R) && R.End <= M->Size;
}

/// A host side: its size is unknown, but its addresses must not wrap.
static bool makeHostRect(const void *Ptr, const size_t *Origin,
                         const size_t *Region, size_t Row, size_t Slice,
                         Rect &R) {
  return makeRect(Origin, Region, Row, Slice, R) &&
         R.End <= UINTPTR_MAX - reinterpret_cast<uintptr_t>(Ptr);
}

static void copyRect(char *Dst, const Rect &D, const char *Src, const Rect &S,
                     const size_t *Region) {
  for (size_t Z = 0; Z < Region[2]; ++Z)
    for (size_t Y = 0; Y < Region[1]; ++Y)
      std::memmove(Dst + D.Begin + Z * D.Slice + Y * D.Row,
                   Src + S.Begin + Z * S.Slice + Y * S.Row, Region[0]);
}

/// The checks clEnqueueReadBufferRect and clEnqueueWriteBufferRect share;
/// fills the buffer's rectangle \p B and the host's \p H.
static cl_int checkHostRect(const char *Func, cl_command_queue Q, cl_mem M,
                            const void *Ptr, const size_t *BufOrigin,
                            const size_t *HostOrigin, const size_t *Region,
                            size_t BufRow, size_t BufSlice, size_t HostRow,
                            size_t HostSlice, cl_uint NumWait,
                            const cl_event *Wait, Rect &B, Rect &H) {
  if (cl_int E = checkQueueMem(Func, Q, M))
    return E;
  if (cl_int E = checkWaitList(Func, Q->Context.get(), NumWait, Wait))
    return E;
  if (!Ptr || !validRegion(Region) ||
      !makeBufferRect(M, BufOrigin, Region, BufRow, BufSlice, B) ||
      !makeHostRect(Ptr, HostOrigin, Region, HostRow, HostSlice, H))
    return apiError(Func, CL_INVALID_VALUE,
                    "bad pointer, region, pitch or bounds");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue Q, cl_mem M, cl_bool Blocking, const size_t *BufOrigin,
    const size_t *HostOrigin, const size_t *Region, size_t BufRow,
    size_t BufSlice, size_t HostRow, size_t HostSlice, void *Ptr,
    cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  Rect B, H;
  if (cl_int E = checkHostRect(__func__, Q, M, Ptr, BufOrigin, HostOrigin,
                               Region, BufRow, BufSlice, HostRow, HostSlice,
                               NumWait, Wait, B, H))
    return E;
  if (hostCannotRead(M))
    return ISS_ERR(CL_INVALID_OPERATION, "buffer is not host-readable");
  Ref<_cl_mem> Keep(M);
  std::array<size_t, 3> Reg = {Region[0], Region[1], Region[2]};
  return enqueueCommand(Q, CL_COMMAND_READ_BUFFER_RECT, NumWait, Wait, Event,
                        Blocking, [Keep, B, H, Reg, Ptr] {
                          copyRect(static_cast<char *>(Ptr), H, Keep->Data, B,
                                   Reg.data());
                          return CL_SUCCESS;
                        });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue Q, cl_mem M, cl_bool Blocking, const size_t *BufOrigin,
    const size_t *HostOrigin, const size_t *Region, size_t BufRow,
    size_t BufSlice, size_t HostRow, size_t HostSlice, const void *Ptr,
    cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  Rect B, H;
  if (cl_int E = checkHostRect(__func__, Q, M, Ptr, BufOrigin, HostOrigin,
                               Region, BufRow, BufSlice, HostRow, HostSlice,
                               NumWait, Wait, B, H))
    return E;
  if (hostCannotWrite(M))
    return ISS_ERR(CL_INVALID_OPERATION, "buffer is not host-writable");
  Ref<_cl_mem> Keep(M);
  std::array<size_t, 3> Reg = {Region[0], Region[1], Region[2]};
  return enqueueCommand(
      Q, CL_COMMAND_WRITE_BUFFER_RECT, NumWait, Wait, Event, Blocking,
      [Keep, B, H, Reg, Ptr] {
        copyRect(Keep->Data, B, static_cast<const char *>(Ptr), H, Reg.data());
        return CL_SUCCESS;
      });
}

/// Whether two rectangles with the same pitches in one buffer share a
/// byte: rows [a, a+W) and [b, b+W) overlap iff |a - b| < W, and for each
/// slice distance only the row distance nearest to cancelling matters.
static bool rectsOverlap(size_t SrcOff, size_t DstOff, const Rect &R,
                         const size_t *Region) {
  const long long W = Region[0], Row = R.Row, Slice = R.Slice;
  const long long H = Region[1], D = Region[2];
  for (long long DZ = -(D - 1); DZ <= D - 1; ++DZ) {
    long long C = (long long)SrcOff - (long long)DstOff + DZ * Slice;
    // Find Y in [-(H-1), H-1] minimizing |C + Y*Row|.
    long long Best = Row ? -C / Row : 0;
    for (long long Y = Best - 1; Y <= Best + 1; ++Y) {
      long long YC = std::clamp(Y, -(H - 1), H - 1);
      long long Diff = C + YC * Row;
      if (Diff < W && -Diff < W)
        return true;
    }
  }
  return false;
}

/// clEnqueueCopyBufferRect and clCommandCopyBufferRectKHR.
cl_int iss::copyBufferRectCommand(const char *Func, const CommandTarget &T,
                                  cl_mem Src, cl_mem Dst,
                                  const size_t *SrcOrigin,
                                  const size_t *DstOrigin, const size_t *Region,
                                  size_t SrcRow, size_t SrcSlice, size_t DstRow,
                                  size_t DstSlice) {
  if (cl_int E = checkQueueMem(Func, T.Q, Src))
    return E;
  if (cl_int E = checkQueueMem(Func, T.Q, Dst))
    return E;
  if (cl_int E = T.checkWaits(Func))
    return E;
  Rect S, D;
  if (!validRegion(Region) ||
      !makeBufferRect(Src, SrcOrigin, Region, SrcRow, SrcSlice, S) ||
      !makeBufferRect(Dst, DstOrigin, Region, DstRow, DstSlice, D))
    return apiError(Func, CL_INVALID_VALUE, "bad region, pitch or bounds");
  // Equal pitches are required of one buffer object only (OpenCL 3.0,
  // clEnqueueCopyBufferRect): two sub-buffers of one buffer may differ,
  // and then overlap where their rectangles' extents meet.
  bool SamePitches = S.Row == D.Row && S.Slice == D.Slice;
  if (Src == Dst && !SamePitches)
    return apiError(Func, CL_INVALID_VALUE,
                    "a copy within one buffer needs equal pitches");
  auto [SrcRoot, SrcAt] = rootOf(Src, S.Begin);
  auto [DstRoot, DstAt] = rootOf(Dst, D.Begin);
  if (SrcRoot == DstRoot &&
      (SamePitches ? rectsOverlap(SrcAt, DstAt, S, Region)
                   : SrcAt < DstAt + (D.End - D.Begin) &&
                         DstAt < SrcAt + (S.End - S.Begin)))
    return apiError(Func, CL_MEM_COPY_OVERLAP,
                    "source and destination overlap");
  Ref<_cl_mem> KeepSrc(Src), KeepDst(Dst);
  std::array<size_t, 3> Reg = {Region[0], Region[1], Region[2]};
  return T.run(CL_COMMAND_COPY_BUFFER_RECT, [KeepSrc, KeepDst, S, D, Reg] {
    copyRect(KeepDst->Data, D, KeepSrc->Data, S, Reg.data());
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue Q, cl_mem Src, cl_mem Dst, const size_t *SrcOrigin,
    const size_t *DstOrigin, const size_t *Region, size_t SrcRow,
    size_t SrcSlice, size_t DstRow, size_t DstSlice, cl_uint NumWait,
    const cl_event *Wait, cl_event *Event) {
  return copyBufferRectCommand(
      __func__, CommandTarget::queue(Q, NumWait, Wait, Event), Src, Dst,
      SrcOrigin, DstOrigin, Region, SrcRow, SrcSlice, DstRow, DstSlice);
}

/// clEnqueueFillBuffer and clCommandFillBufferKHR.
cl_int iss::fillBufferCommand(const char *Func, const CommandTarget &T,
                              cl_mem M, const void *Pattern, size_t PatternSize,
                              size_t Offset, size_t Size) {
  if (cl_int E = checkQueueMem(Func, T.Q, M))
    return E;
  if (cl_int E = T.checkWaits(Func))
    return E;
  if (!Pattern || !FillPattern::validSize(PatternSize))
    return apiError(Func, CL_INVALID_VALUE,
                    "pattern is NULL or its size is not 1, 2, 4, ..., 128");
  if (Offset % PatternSize || Size % PatternSize || !inBounds(M, Offset, Size))
    return apiError(
        Func, CL_INVALID_VALUE,
        "offset/size not multiples of the pattern, or out of bounds");
  Ref<_cl_mem> Keep(M);
  FillPattern Pat(Pattern, PatternSize);
  return T.run(CL_COMMAND_FILL_BUFFER, [Keep, Pat, Offset, Size] {
    Pat.fill(Keep->Data + Offset, Size);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueFillBuffer(cl_command_queue Q, cl_mem M, const void *Pattern,
                    size_t PatternSize, size_t Offset, size_t Size,
                    cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  return fillBufferCommand(__func__,
                           CommandTarget::queue(Q, NumWait, Wait, Event), M,
                           Pattern, PatternSize, Offset, Size);
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(
    cl_command_queue Q, cl_mem M, cl_bool Blocking, cl_map_flags Flags,
    size_t Offset, size_t Size, cl_uint NumWait, const cl_event *Wait,
    cl_event *Event, cl_int *Err) {
  if (cl_int E = checkQueueMem(__func__, Q, M))
    return setErrcode(Err, E), nullptr;
  if (cl_int E = checkWaitList(__func__, Q->Context.get(), NumWait, Wait))
    return setErrcode(Err, E), nullptr;
  if (!validMapFlags(Flags))
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "invalid map flags");
  if (!inBounds(M, Offset, Size))
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "region out of bounds or size 0");
  if (mapConflictsWithHostAccess(M, Flags))
    return ISS_ERR_RET(Err, CL_INVALID_OPERATION,
                       "map flags conflict with the host access flags");
  void *Ptr = M->Data + Offset;
  {
    std::lock_guard<std::mutex> L(M->M);
    M->Mappings.push_back(Ptr);
    ++M->MapCount;
  }
  Ref<_cl_mem> Keep(M);
  cl_int E = enqueueCommand(Q, CL_COMMAND_MAP_BUFFER, NumWait, Wait, Event,
                            Blocking, [Keep] { return CL_SUCCESS; });
  setErrcode(Err, E);
  return E == CL_SUCCESS ? Ptr : nullptr;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue Q,
                                                        cl_mem M, void *Ptr,
                                                        cl_uint NumWait,
                                                        const cl_event *Wait,
                                                        cl_event *Event) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (!isValid(M))
    return ISS_ERR(CL_INVALID_MEM_OBJECT, "invalid memory object");
  if (M->Context.get() != Q->Context.get())
    return ISS_ERR(CL_INVALID_CONTEXT, "different contexts");
  if (cl_int E = checkWaitList(__func__, Q->Context.get(), NumWait, Wait))
    return E;
  {
    std::lock_guard<std::mutex> L(M->M);
    auto It = std::find(M->Mappings.begin(), M->Mappings.end(), Ptr);
    if (It == M->Mappings.end())
      return ISS_ERR(CL_INVALID_VALUE, "pointer was not returned by a map");
    M->Mappings.erase(It);
    --M->MapCount;
  }
  Ref<_cl_mem> Keep(M);
  return enqueueCommand(Q, CL_COMMAND_UNMAP_MEM_OBJECT, NumWait, Wait, Event,
                        false, [Keep] { return CL_SUCCESS; });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(
    cl_command_queue Q, cl_uint NumMems, const cl_mem *Mems,
    cl_mem_migration_flags Flags, cl_uint NumWait, const cl_event *Wait,
    cl_event *Event) {
  if (cl_int E = checkMigration(__func__, Q, NumMems, Mems, Flags))
    return E;
  for (cl_uint I = 0; I < NumMems; ++I) {
    if (!isValid(Mems[I]))
      return ISS_ERR(CL_INVALID_MEM_OBJECT, "invalid memory object");
    if (Mems[I]->Context.get() != Q->Context.get())
      return ISS_ERR(CL_INVALID_CONTEXT, "different contexts");
  }
  if (cl_int E = checkWaitList(__func__, Q->Context.get(), NumWait, Wait))
    return E;
  // One memory for host and device: migrating is only an ordering point.
  return enqueueCommand(Q, CL_COMMAND_MIGRATE_MEM_OBJECTS, NumWait, Wait, Event,
                        false, nullptr);
}
