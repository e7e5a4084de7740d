//===- CommandQueue.cpp - Command queues, clFlush, clFinish ---------------===//
// SPDX-License-Identifier: MIT
//
// Each queue is one stream of the device's command scheduler, in order or,
// with CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, out of order: then a command
// runs as soon as its wait list is done, and markers and barriers order it
// as OpenCL 1.2 (5.10) says (CommandScheduler.h). Commands are submitted as
// they are enqueued, so clFlush has nothing left to do and clFinish waits
// for the stream to drain.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

#include "Device/Pthread/CommandScheduler.h"

using namespace iss;

_cl_command_queue::~_cl_command_queue() {
  if (Device) {
    Device->scheduler().closeStream(Stream);
    releaseObject(Device);
  }
}

namespace iss {
void destroyObject(_cl_command_queue *Q) { deleteObject(Q); }
} // namespace iss

static cl_command_queue makeQueue(const char *Func, cl_context C,
                                  cl_device_id D,
                                  cl_command_queue_properties Props,
                                  cl_int *Err) {
  if (!isValid(C))
    return setErrcode(Err,
                      apiError(Func, CL_INVALID_CONTEXT, "invalid context")),
           nullptr;
  if (!isValid(D) || !C->hasDevice(D))
    return setErrcode(Err, apiError(Func, CL_INVALID_DEVICE,
                                    "device not in the context")),
           nullptr;
  const cl_command_queue_properties Known =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  if (Props & ~Known)
    return setErrcode(Err, apiError(Func, CL_INVALID_VALUE,
                                    "unknown queue property bits")),
           nullptr;
  cl_command_queue Q = makeObject<_cl_command_queue>();
  if (!Q)
    return setErrcode(Err, apiError(Func, CL_OUT_OF_HOST_MEMORY,
                                    "allocating the queue")),
           nullptr;
  Q->Context = Ref<_cl_context>(C);
  Q->Properties = Props;
  Q->Stream =
      D->scheduler().openStream(Props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  retainObject(D); // a sub-device the application releases stays
  Q->Device = D;
  setErrcode(Err, CL_SUCCESS);
  return Q;
}

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context C, cl_device_id D,
                     cl_command_queue_properties Props, cl_int *Err) {
  return makeQueue(__func__, C, D, Props, Err);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(
    cl_context C, cl_device_id D, const cl_queue_properties *Props,
    cl_int *Err) {
  // The handles first, as clCreateCommandQueue checks them.
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  if (!isValid(D) || !C->hasDevice(D))
    return ISS_ERR_RET(Err, CL_INVALID_DEVICE, "device not in the context");
  cl_command_queue_properties Bits = 0;
  std::vector<cl_queue_properties> Copy;
  if (Props) {
    for (const cl_queue_properties *P = Props; *P; P += 2) {
      switch (P[0]) {
      case CL_QUEUE_PROPERTIES:
        Bits = P[1];
        if (Bits & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT))
          return ISS_ERR_RET(Err, CL_INVALID_QUEUE_PROPERTIES,
                             "device-side queues are not supported");
        break;
      case CL_QUEUE_SIZE:
        return ISS_ERR_RET(Err, CL_INVALID_QUEUE_PROPERTIES,
                           "CL_QUEUE_SIZE needs a device-side queue");
      default:
        return ISS_ERR_RET(Err, CL_INVALID_VALUE, "unknown queue property");
      }
      Copy.push_back(P[0]);
      Copy.push_back(P[1]);
    }
    Copy.push_back(0);
  }
  cl_command_queue Q = makeQueue(__func__, C, D, Bits, Err);
  if (Q)
    Q->PropertyArray = std::move(Copy);
  return Q;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue Q) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  retainObject(Q);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue Q) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  // Commands already enqueued keep the queue alive (their events hold it)
  // and still run: releasing implies a flush, which is a no-op here.
  releaseObject(Q);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetCommandQueueInfo(cl_command_queue Q, cl_command_queue_info Param,
                      size_t Size, void *Value, size_t *SizeRet) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  switch (Param) {
  case CL_QUEUE_CONTEXT:
    return returnValue(Size, Value, SizeRet, Q->Context.get());
  case CL_QUEUE_DEVICE:
    return returnValue(Size, Value, SizeRet, Q->Device);
  case CL_QUEUE_REFERENCE_COUNT:
    return returnValue(Size, Value, SizeRet, cl_uint(Q->RefCount.load()));
  case CL_QUEUE_PROPERTIES:
    return returnValue(Size, Value, SizeRet, Q->Properties);
  case CL_QUEUE_PROPERTIES_ARRAY:
    // Empty unless made by clCreateCommandQueueWithProperties with a list.
    return returnArray(Size, Value, SizeRet, Q->PropertyArray);
  case CL_QUEUE_SIZE:
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "not a device-side queue");
  case CL_QUEUE_DEVICE_DEFAULT:
    // No device-side enqueue, so no default device queue.
    return returnValue(Size, Value, SizeRet, cl_command_queue(nullptr));
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_command_queue_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL
clSetCommandQueueProperty(cl_command_queue Q, cl_command_queue_properties Props,
                          cl_bool Enable, cl_command_queue_properties *Old) {
  (void)Props;
  (void)Enable;
  (void)Old;
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  return ISS_ERR(CL_INVALID_OPERATION,
                 "clSetCommandQueueProperty was removed in OpenCL 1.1");
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue Q) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  return CL_SUCCESS; // commands are submitted when enqueued
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue Q) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  Q->Device->scheduler().drain(Q->Stream);
  return CL_SUCCESS;
}
