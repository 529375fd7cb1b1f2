#include "jni/jni_call.h"

namespace partita::jni {
namespace {

// Cached at JNI_OnLoad: EngineException and its static factory
// fromNative(int code, byte[] utf8Message). The message travels as UTF-8
// bytes because engine messages may quote any user string, which JNI's
// NewStringUTF (modified UTF-8) would not accept.
jclass g_exception_class = nullptr;
jmethodID g_from_native = nullptr;

constexpr const char* kExceptionClass = "org/partita/server/engine/EngineException";

}  // namespace

void ThrowEngineException(JNIEnv* env, const Status& status) {
  if (env->ExceptionCheck()) return;  // a Java exception (e.g. OutOfMemoryError) is already pending
  const std::string& message = status.message();
  jbyteArray bytes = env->NewByteArray(static_cast<jsize>(message.size()));
  if (bytes == nullptr) return;  // OutOfMemoryError pending
  env->SetByteArrayRegion(bytes, 0, static_cast<jsize>(message.size()), reinterpret_cast<const jbyte*>(message.data()));
  auto exception = static_cast<jthrowable>(
      env->CallStaticObjectMethod(g_exception_class, g_from_native, static_cast<jint>(status.code()), bytes));
  env->DeleteLocalRef(bytes);
  if (exception != nullptr && !env->ExceptionCheck()) env->Throw(exception);
}

}  // namespace partita::jni

// Caches the exception class; fails the library load if it is missing.
extern "C" JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void*) {
  JNIEnv* env = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_10) != JNI_OK) return JNI_ERR;
  jclass local = env->FindClass(partita::jni::kExceptionClass);
  if (local == nullptr) return JNI_ERR;
  partita::jni::g_exception_class = static_cast<jclass>(env->NewGlobalRef(local));
  env->DeleteLocalRef(local);
  partita::jni::g_from_native = env->GetStaticMethodID(partita::jni::g_exception_class, "fromNative",
                                                       "(I[B)Lorg/partita/server/engine/EngineException;");
  if (partita::jni::g_from_native == nullptr) return JNI_ERR;
  return JNI_VERSION_10;
}
