package org.partita.server.engine;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads {@code libpartita_jni.so} once per JVM:
 *
 * <ol>
 *   <li>from the path in system property {@value #PATH_PROPERTY}, if set;
 *   <li>else from the classpath resource {@value #RESOURCE} (the server jar and
 *       {@code target/classes} carry it: Maven copies it from {@code partita.native.dir}),
 *       extracted to a temporary file deleted on exit.
 * </ol>
 *
 * No LD_LIBRARY_PATH is involved. Failure is an {@link UnsatisfiedLinkError}
 * saying how to build the library.
 */
public final class NativeLibrary {
  /** System property naming the library file to load instead of the bundled one. */
  public static final String PATH_PROPERTY = "partita.native.library";

  static final String RESOURCE = "/native/linux-x86_64/libpartita_jni.so";

  private static final String HOW_TO_BUILD =
      "build it with scripts/build (CMake writes build/ee/src/jni/libpartita_jni.so and Maven packages it),"
          + " or point -D" + PATH_PROPERTY + "=/path/to/libpartita_jni.so at a built copy";

  private static boolean loaded;

  private NativeLibrary() {}

  /** Loads the library unless already loaded. Thread-safe. */
  public static synchronized void load() {
    if (loaded) {
      return;
    }
    final String path = System.getProperty(PATH_PROPERTY);
    if (path != null && !path.isEmpty()) {
      final File file = new File(path);
      if (!file.isFile()) {
        throw new UnsatisfiedLinkError(
            "-D" + PATH_PROPERTY + "=" + path + " does not name a file; " + HOW_TO_BUILD);
      }
      System.load(file.getAbsolutePath());
    } else {
      System.load(extract().toString());
    }
    loaded = true;
  }

  private static Path extract() {
    final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    final String arch = System.getProperty("os.arch", "");
    if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      throw new UnsatisfiedLinkError(
          "the Partita engine is built for linux-x86_64 only, this JVM runs on " + os + "/" + arch);
    }
    try (InputStream in = NativeLibrary.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new UnsatisfiedLinkError(
            "libpartita_jni.so is not on the classpath (resource " + RESOURCE + "): " + HOW_TO_BUILD);
      }
      final Path file = Files.createTempFile("libpartita_jni", ".so");
      file.toFile().deleteOnExit();
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      return file;
    } catch (IOException e) {
      final UnsatisfiedLinkError error =
          new UnsatisfiedLinkError("could not extract " + RESOURCE + " to a temporary file: " + e);
      error.initCause(e);
      throw error;
    }
  }
}
