package org.partita.server.engine;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Locale;
import java.util.Set;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;

/**
 * Loads {@code libpartita_jni.so} once per JVM:
 *
 * <ol>
 *   <li>from the path in system property {@value #PATH_PROPERTY}, if set;
 *   <li>else from the classpath resource {@value #RESOURCE} (the server jar and
 *       {@code target/classes} carry it: Maven copies it from {@code partita.native.dir}),
 *       extracted once per library build to
 *       {@code ${java.io.tmpdir}/partita-native-${user.name}/libpartita_jni-<crc>-<size>.so}
 *       and shared by every process that loads the same build. Extracted to a new
 *       temporary file per process, deleted on exit, a copy of 27 MB stayed behind
 *       for every process that was killed or halted: thousands of them filled the
 *       disk of a machine that ran the fault and failover tests.
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

  /**
   * Loading a library from a directory others can write to would run their
   * code: the shared copy's directory must be this user's and closed to
   * everyone else.
   */
  private static void checkPrivate(Path dir, UserPrincipal self) throws IOException {
    final Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(dir);
    if (!Files.getOwner(dir).equals(self) || permissions.contains(PosixFilePermission.GROUP_WRITE)
        || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
      throw new UnsatisfiedLinkError(dir + " is not this user's own directory (owner " + Files.getOwner(dir)
          + ", permissions " + PosixFilePermissions.toString(permissions) + "): the engine library is not loaded"
          + " from it; remove it, or point -D" + PATH_PROPERTY + "=/path/to/libpartita_jni.so at a built copy");
    }
  }

  /** The bundled library's file, extracted unless this build's copy is there already. */
  static Path extract() {
    final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    final String arch = System.getProperty("os.arch", "");
    if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      throw new UnsatisfiedLinkError(
          "the Partita engine is built for linux-x86_64 only, this JVM runs on " + os + "/" + arch);
    }
    final Path dir = Path.of(System.getProperty("java.io.tmpdir"),
        "partita-native-" + System.getProperty("user.name", "user"));
    Path part = null;
    try (InputStream in = NativeLibrary.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new UnsatisfiedLinkError(
            "libpartita_jni.so is not on the classpath (resource " + RESOURCE + "): " + HOW_TO_BUILD);
      }
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      part = Files.createTempFile(dir, "libpartita_jni", ".so.part");
      checkPrivate(dir, Files.getOwner(part));
      final CRC32C crc = new CRC32C();
      final long size = Files.copy(new CheckedInputStream(in, crc), part, StandardCopyOption.REPLACE_EXISTING);
      final Path file = dir.resolve(String.format(Locale.ROOT, "libpartita_jni-%08x-%d.so", crc.getValue(), size));
      // The directory is this user's alone and the copy arrives whole (an atomic move): its name and size say it.
      if (!Files.isRegularFile(file) || Files.size(file) != size) {
        // Atomic: a process loading it meanwhile sees the whole file or none.
        Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      }
      return file;
    } catch (IOException e) {
      final UnsatisfiedLinkError error =
          new UnsatisfiedLinkError("could not extract " + RESOURCE + " to " + dir + ": " + e);
      error.initCause(e);
      throw error;
    } finally {
      if (part != null) {
        try {
          Files.deleteIfExists(part);
        } catch (IOException ignored) {
          // Left behind: a .part file, never loaded.
        }
      }
    }
  }
}
