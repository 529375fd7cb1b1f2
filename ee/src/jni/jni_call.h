// JniCall: the one wrapper every JNI entry point of libpartita_jni.so goes
// through (STYLE.md rule 17). It
//   * validates the engine handle (HandleTable::Find: live, right thread,
//     magic) before the body may touch the engine;
//   * runs the body, which reports failure only as a Status;
//   * catches every C++ exception (std::bad_alloc, ...) as ERROR_CODE_INTERNAL,
//     so none crosses into the JVM;
//   * turns an error into a thrown org.partita.server.engine.EngineException
//     (code = proto ErrorCode number, message = the Status message) and
//     returns a placeholder value the Java side never sees.
// This is the only place the library throws into Java.
//
// Thread model: stateless apart from the class references cached at
// JNI_OnLoad (immutable afterwards).
#ifndef PARTITA_JNI_JNI_CALL_H_
#define PARTITA_JNI_JNI_CALL_H_

#include <jni.h>

#include <exception>
#include <string>

#include "errors.pb.h"
#include "jni/engine_handle.h"
#include "partita/status.h"

namespace partita::jni {

// Throws EngineException(code, message) into the calling Java thread.
void ThrowEngineException(JNIEnv* env, const Status& status);

// Runs `body()` -> Result<T>. On error throws EngineException and returns
// `on_error`.
template <typename T, typename Body>
T JniCall(JNIEnv* env, T on_error, Body&& body) {
  try {
    Result<T> r = body();
    if (r.ok()) return std::move(r).value();
    ThrowEngineException(env, r.status());
  } catch (const std::exception& e) {
    ThrowEngineException(env, Status(proto::ERROR_CODE_INTERNAL, std::string("native engine error: ") + e.what()));
  } catch (...) {
    ThrowEngineException(env, Status(proto::ERROR_CODE_INTERNAL, "native engine error (unknown exception)"));
  }
  return on_error;
}

// JniCall for `void` entry points.
template <typename Body>
void JniCallVoid(JNIEnv* env, Body&& body) {
  try {
    Status s = body();
    if (!s.ok()) ThrowEngineException(env, s);
  } catch (const std::exception& e) {
    ThrowEngineException(env, Status(proto::ERROR_CODE_INTERNAL, std::string("native engine error: ") + e.what()));
  } catch (...) {
    ThrowEngineException(env, Status(proto::ERROR_CODE_INTERNAL, "native engine error (unknown exception)"));
  }
}

// JniCall on an engine: `body(EngineHandle&)` runs only when `handle` is
// valid for the calling thread.
template <typename T, typename Body>
T JniEngineCall(JNIEnv* env, jlong handle, T on_error, Body&& body) {
  return JniCall<T>(env, on_error, [&]() -> Result<T> {
    Result<EngineHandle*> h = HandleTable::Instance().Find(handle);
    if (!h.ok()) return h.status();
    return body(*h.value());
  });
}

template <typename Body>
void JniEngineCallVoid(JNIEnv* env, jlong handle, Body&& body) {
  JniCallVoid(env, [&]() -> Status {
    Result<EngineHandle*> h = HandleTable::Instance().Find(handle);
    if (!h.ok()) return h.status();
    return body(*h.value());
  });
}

}  // namespace partita::jni

#endif  // PARTITA_JNI_JNI_CALL_H_
