// JNI entry points of org.partita.server.engine.NativeEngine (docs/jni.md).
//
// Buffer protocol. Java registers two direct ByteBuffers once per engine
// (setBuffers); the library keeps their addresses and capacities.
//   execute(handle, n): the request is the first n bytes of the request buffer
//     (a serialized batch, docs/engine-formats.md). On success the response
//     [u64 write hash][result set] is copied to the start of the response
//     buffer and execute returns its length L >= 12. When it does not fit,
//     execute returns -L (L > 0: the bytes needed) and keeps the results in
//     the handle; Java grows the response buffer, calls setBuffers, then
//     fetchPendingResult(handle), which copies them and returns L (or -L
//     again if still too small). The next execute discards results never
//     fetched.
// Error channel. Every failure — engine errors (constraint violations, bad
//   requests, ...), invalid handles, calls from a thread other than the one
//   that opened the engine — throws EngineException(code, message) from the
//   one wrapper (jni_call.h); the value returned then is meaningless. The
//   success path allocates no Java object and makes no JNI upcall.
// Threads. An engine is used only by the Java thread that opened it (one site
//   thread per engine); other threads get EngineException. The exception is
//   cancel(handle), which any thread may call (HandleTable::Cancel).
#include <jni.h>

#include <cstring>
#include <string>

#include "engine_stats.pb.h"
#include "errors.pb.h"
#include "jni/engine_handle.h"
#include "jni/jni_call.h"

namespace partita::jni {
namespace {

Status BadRequest(const std::string& what) { return Status(proto::ERROR_CODE_BAD_REQUEST, what); }

Result<std::string> ReadBytes(JNIEnv* env, jbyteArray array, const char* what) {
  if (array == nullptr) return BadRequest(std::string(what) + " is null");
  std::string bytes(static_cast<size_t>(env->GetArrayLength(array)), '\0');
  env->GetByteArrayRegion(array, 0, static_cast<jsize>(bytes.size()), reinterpret_cast<jbyte*>(bytes.data()));
  return bytes;
}

// Bytes before the result set in the response: the u64 write hash.
constexpr size_t kResponseHeaderBytes = sizeof(uint64_t);

// Copies the handle's write hash and results into the response buffer:
// their length, or -length when the buffer is too small (they stay pending).
jlong DeliverResults(EngineHandle& h) {
  const std::span<const uint8_t> bytes = h.results.bytes();
  const auto size = static_cast<jlong>(kResponseHeaderBytes + bytes.size());
  if (size > h.response_capacity) {
    h.pending = true;
    return -size;
  }
  const uint64_t hash = h.results.write_hash();
  std::memcpy(h.response, &hash, kResponseHeaderBytes);  // little-endian, as every Partita target
  std::memcpy(h.response + kResponseHeaderBytes, bytes.data(), bytes.size());
  h.pending = false;
  return size;
}

Result<uint8_t*> DirectAddress(JNIEnv* env, jobject buffer, const char* what, int64_t* capacity) {
  if (buffer == nullptr) return BadRequest(std::string(what) + " buffer is null");
  void* address = env->GetDirectBufferAddress(buffer);
  *capacity = env->GetDirectBufferCapacity(buffer);
  if (address == nullptr || *capacity < 0) return BadRequest(std::string(what) + " buffer is not a direct ByteBuffer");
  return static_cast<uint8_t*>(address);
}

}  // namespace
}  // namespace partita::jni

using partita::Result;
using partita::Status;
using partita::jni::EngineHandle;
using partita::jni::HandleTable;
using partita::jni::JniCall;
using partita::jni::JniEngineCall;
using partita::jni::JniEngineCallVoid;

extern "C" {

JNIEXPORT jlong JNICALL Java_org_partita_server_engine_NativeEngine_open(JNIEnv* env, jclass, jbyteArray catalog,
                                                                         jint partition_id, jint partition_count,
                                                                         jlong query_memory_bytes) {
  return JniCall<jlong>(env, 0, [&]() -> Result<jlong> {
    Result<std::string> bytes = partita::jni::ReadBytes(env, catalog, "catalog");
    if (!bytes.ok()) return bytes.status();
    if (query_memory_bytes < 0) {
      return partita::jni::BadRequest("query memory " + std::to_string(query_memory_bytes) + " is negative");
    }
    partita::EngineOptions options;
    options.partition_id = partition_id;
    options.partition_count = partition_count;
    options.query_memory_bytes = query_memory_bytes;
    Result<std::unique_ptr<partita::Engine>> engine = partita::Engine::Open(bytes.value(), options);
    if (!engine.ok()) return engine.status();
    auto handle = std::make_unique<EngineHandle>();
    handle->engine = std::move(engine).value();
    handle->partition_id = partition_id;
    Result<int64_t> added = HandleTable::Instance().Add(std::move(handle));
    if (!added.ok()) return added.status();
    return static_cast<jlong>(added.value());
  });
}

JNIEXPORT jboolean JNICALL Java_org_partita_server_engine_NativeEngine_cancel(JNIEnv* env, jclass, jlong handle) {
  return JniCall<jboolean>(env, JNI_FALSE, [&]() -> Result<jboolean> {
    return partita::jni::HandleTable::Instance().Cancel(handle) ? JNI_TRUE : JNI_FALSE;
  });
}

JNIEXPORT void JNICALL Java_org_partita_server_engine_NativeEngine_setBuffers(JNIEnv* env, jclass, jlong handle,
                                                                              jobject request, jobject response) {
  JniEngineCallVoid(env, handle, [&](EngineHandle& h) -> Status {
    int64_t request_capacity = 0;
    int64_t response_capacity = 0;
    Result<uint8_t*> req = partita::jni::DirectAddress(env, request, "request", &request_capacity);
    if (!req.ok()) return req.status();
    Result<uint8_t*> resp = partita::jni::DirectAddress(env, response, "response", &response_capacity);
    if (!resp.ok()) return resp.status();
    h.request = req.value();
    h.request_capacity = request_capacity;
    h.response = resp.value();
    h.response_capacity = response_capacity;
    return Status::OK();
  });
}

JNIEXPORT jlong JNICALL Java_org_partita_server_engine_NativeEngine_execute(JNIEnv* env, jclass, jlong handle,
                                                                            jint request_length) {
  return JniEngineCall<jlong>(env, handle, 0, [&](EngineHandle& h) -> Result<jlong> {
    if (h.request == nullptr) return partita::jni::BadRequest("execute before setBuffers");
    if (request_length < 0 || request_length > h.request_capacity) {
      return partita::jni::BadRequest("request length " + std::to_string(request_length) +
                                      " outside the request buffer of " + std::to_string(h.request_capacity) +
                                      " bytes");
    }
    h.pending = false;
    PARTITA_RETURN_IF_ERROR(
        h.engine->ExecuteSerializedBatch({h.request, static_cast<size_t>(request_length)}, &h.results));
    return partita::jni::DeliverResults(h);
  });
}

JNIEXPORT jlong JNICALL Java_org_partita_server_engine_NativeEngine_fetchPendingResult(JNIEnv* env, jclass,
                                                                                       jlong handle) {
  return JniEngineCall<jlong>(env, handle, 0, [&](EngineHandle& h) -> Result<jlong> {
    if (!h.pending) return partita::jni::BadRequest("fetchPendingResult without a pending result");
    return partita::jni::DeliverResults(h);
  });
}

JNIEXPORT void JNICALL Java_org_partita_server_engine_NativeEngine_updateCatalog(JNIEnv* env, jclass, jlong handle,
                                                                                 jbyteArray catalog) {
  JniEngineCallVoid(env, handle, [&](EngineHandle& h) -> Status {
    Result<std::string> bytes = partita::jni::ReadBytes(env, catalog, "catalog");
    if (!bytes.ok()) return bytes.status();
    h.pending = false;
    return h.engine->UpdateCatalog(bytes.value());
  });
}

JNIEXPORT void JNICALL Java_org_partita_server_engine_NativeEngine_commit(JNIEnv* env, jclass, jlong handle) {
  JniEngineCallVoid(env, handle, [&](EngineHandle& h) -> Status {
    h.engine->Commit();
    return Status::OK();
  });
}

JNIEXPORT void JNICALL Java_org_partita_server_engine_NativeEngine_rollback(JNIEnv* env, jclass, jlong handle) {
  JniEngineCallVoid(env, handle, [&](EngineHandle& h) -> Status {
    h.engine->Rollback();
    return Status::OK();
  });
}

JNIEXPORT jboolean JNICALL Java_org_partita_server_engine_NativeEngine_inTransaction(JNIEnv* env, jclass,
                                                                                     jlong handle) {
  return JniEngineCall<jboolean>(env, handle, JNI_FALSE, [&](EngineHandle& h) -> Result<jboolean> {
    return h.engine->in_transaction() ? JNI_TRUE : JNI_FALSE;
  });
}

JNIEXPORT jbyteArray JNICALL Java_org_partita_server_engine_NativeEngine_tableStats(JNIEnv* env, jclass,
                                                                                    jlong handle) {
  return JniEngineCall<jbyteArray>(env, handle, nullptr, [&](EngineHandle& h) -> Result<jbyteArray> {
    partita::proto::TableStatsList list;
    list.set_partition_id(h.partition_id);
    for (const partita::TableStats& t : h.engine->GetTableStats()) {
      partita::proto::TableStats* out = list.add_tables();
      out->set_name(t.name);
      out->set_row_count(t.row_count);
      out->set_bytes_used(t.bytes_used);
      out->set_bytes_allocated(t.bytes_allocated);
      out->set_index_bytes(t.index_bytes);
    }
    const std::string bytes = list.SerializeAsString();
    jbyteArray array = env->NewByteArray(static_cast<jsize>(bytes.size()));
    if (array == nullptr) return Status(partita::proto::ERROR_CODE_INTERNAL, "out of Java heap for table stats");
    env->SetByteArrayRegion(array, 0, static_cast<jsize>(bytes.size()), reinterpret_cast<const jbyte*>(bytes.data()));
    return array;
  });
}

JNIEXPORT void JNICALL Java_org_partita_server_engine_NativeEngine_beginSnapshot(JNIEnv* env, jclass, jlong handle) {
  JniEngineCallVoid(env, handle, [&](EngineHandle& h) -> Status { return h.engine->BeginSnapshot(); });
}

JNIEXPORT jbyteArray JNICALL Java_org_partita_server_engine_NativeEngine_nextSnapshotChunk(JNIEnv* env, jclass,
                                                                                           jlong handle,
                                                                                           jint max_bytes) {
  return JniEngineCall<jbyteArray>(env, handle, nullptr, [&](EngineHandle& h) -> Result<jbyteArray> {
    if (max_bytes <= 0) return partita::jni::BadRequest("chunk size " + std::to_string(max_bytes) + " is not positive");
    std::string chunk;
    Result<bool> more = h.engine->NextSnapshotChunk(static_cast<size_t>(max_bytes), &chunk);
    if (!more.ok()) return more.status();
    if (!more.value()) return static_cast<jbyteArray>(nullptr);
    jbyteArray array = env->NewByteArray(static_cast<jsize>(chunk.size()));
    if (array == nullptr) {
      h.engine->AbortSnapshot();
      return Status(partita::proto::ERROR_CODE_INTERNAL, "out of Java heap for a snapshot chunk; snapshot abandoned");
    }
    env->SetByteArrayRegion(array, 0, static_cast<jsize>(chunk.size()), reinterpret_cast<const jbyte*>(chunk.data()));
    return array;
  });
}

JNIEXPORT void JNICALL Java_org_partita_server_engine_NativeEngine_abortSnapshot(JNIEnv* env, jclass, jlong handle) {
  JniEngineCallVoid(env, handle, [&](EngineHandle& h) -> Status {
    h.engine->AbortSnapshot();
    return Status::OK();
  });
}

JNIEXPORT jlong JNICALL Java_org_partita_server_engine_NativeEngine_snapshotKeptBytes(JNIEnv* env, jclass,
                                                                                      jlong handle) {
  return JniEngineCall<jlong>(env, handle, 0, [&](EngineHandle& h) -> Result<jlong> {
    return static_cast<jlong>(h.engine->snapshot_kept_bytes());
  });
}

JNIEXPORT void JNICALL Java_org_partita_server_engine_NativeEngine_loadSnapshotChunk(JNIEnv* env, jclass,
                                                                                     jlong handle, jbyteArray chunk) {
  JniEngineCallVoid(env, handle, [&](EngineHandle& h) -> Status {
    Result<std::string> bytes = partita::jni::ReadBytes(env, chunk, "snapshot chunk");
    if (!bytes.ok()) return bytes.status();
    const std::string& b = bytes.value();
    return h.engine->LoadSnapshotChunk({reinterpret_cast<const uint8_t*>(b.data()), b.size()});
  });
}

JNIEXPORT void JNICALL Java_org_partita_server_engine_NativeEngine_close(JNIEnv* env, jclass, jlong handle) {
  JniCall<jboolean>(env, JNI_FALSE, [&]() -> Result<jboolean> {
    Result<std::unique_ptr<EngineHandle>> removed = HandleTable::Instance().Remove(handle);
    if (!removed.ok()) return removed.status();
    removed.value()->engine->Rollback();  // an open transaction dies with the engine
    return JNI_TRUE;
  });
}

}  // extern "C"
